package app.vigie.retention;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL of the retention job, each call inside the caller's transaction. What an incident keeps ("retained": not
 * closed, or closed after the evidence cutoff) is written once, in {@link #RETAINED}.
 */
final class RetentionStore {
    /**
     * An incident {@code i} whose evidence is kept: not closed (a dismissed one too: its period starts when it is
     * closed), or closed after the evidence cutoff (parameter).
     */
    static final String RETAINED = "(i.status <> 'CLOSED' or i.closed_at is null or i.closed_at >= ?)";

    /** The lock key of the job: one instance purges at a time (the others skip their turn). */
    private static final long LOCK = 0x5649474945524554L;  // "VIGIERET"

    private RetentionStore() {
    }

    /** Whether this transaction got the job's lock (released when it ends). */
    static boolean tryLock(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_try_advisory_xact_lock(?)")) {
            ps.setLong(1, LOCK);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** Boots without their deployment (made before V25), locked. */
    static List<Long> bootsWithoutDeployment(Connection c, int limit) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id from stream_boot where deployment is null and purged_at is null
                order by id limit ? for update skip locked""")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }

    static void setDeployment(Connection c, long id, String deployment) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update stream_boot set deployment = ? where id = ?")) {
            ps.setString(1, deployment);
            ps.setLong(2, id);
            ps.executeUpdate();
        }
    }

    /** A (stream, boot) whose records may go. */
    record Boot(long id, String stream, String boot, String deployment, long records) {
    }

    /**
     * Boots silent since before {@code recordsCutoff}, nothing held behind a gap, whose deployment has no running
     * incident (neither closed nor dismissed), and that no incident keeping its evidence rests on (table
     * {@code incident_evidence_boot}): locked.
     */
    static List<Boot> purgeableBoots(Connection c, Instant recordsCutoff, Instant evidenceCutoff, int limit)
            throws SQLException {
        List<Boot> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select sb.id, sb.stream, sb.boot, sb.deployment, sb.accepted from stream_boot sb
                where sb.purged_at is null and sb.deployment is not null and sb.last_seen_at < ?
                  and sb.max_seq < sb.next_seq
                  and not exists (select 1 from incident i where i.deployment = sb.deployment
                    and i.status not in ('CLOSED', 'DISMISSED'))
                  and not exists (select 1 from incident_evidence_boot x join incident i on i.id = x.incident_id
                    where x.stream = sb.stream and x.boot = sb.boot and %s)
                order by sb.id limit ? for update of sb skip locked""".formatted(RETAINED))) {
            ps.setTimestamp(1, Timestamp.from(recordsCutoff));
            ps.setTimestamp(2, Timestamp.from(evidenceCutoff));
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Boot(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getLong(5)));
                }
            }
        }
        return out;
    }

    /**
     * Marks the boots purged (from now on a record of them is rejected) and deletes their detector snapshots; their
     * records go by {@link #deletePurgedSegments}.
     */
    static void markPurged(Connection c, List<Boot> boots, Instant now) throws SQLException {
        Long[] ids = boots.stream().map(Boot::id).toArray(Long[]::new);
        try (PreparedStatement ps = c.prepareStatement("""
                delete from detector_snapshot d using stream_boot sb
                where sb.id = any(?) and d.stream = sb.stream and d.boot = sb.boot""")) {
            ps.setArray(1, c.createArrayOf("bigint", ids));
            ps.executeUpdate();
        }
        // spec v1.1: what the boots sent and the reads they judged of received positions go with their records
        for (String table : List.of("transfer_send", "transfer_send_ref", "transfer_read")) {
            try (PreparedStatement ps = c.prepareStatement("""
                    delete from %s t using stream_boot sb
                    where sb.id = any(?) and t.stream = sb.stream and t.boot = sb.boot""".formatted(table))) {
                ps.setArray(1, c.createArrayOf("bigint", ids));
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "update stream_boot set purged_at = ?, purge_pending = true where id = any(?)")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setArray(2, c.createArrayOf("bigint", ids));
            ps.executeUpdate();
        }
    }

    /**
     * Deletes at most {@code limit} segments of boots marked purged; a boot none of whose segments is left is no
     * longer pending. Returns the segments deleted.
     */
    static int deletePurgedSegments(Connection c, int limit) throws SQLException {
        int deleted;
        try (PreparedStatement ps = c.prepareStatement("""
                delete from record_segment s using (
                  select g.stream_boot_id, g.first_seq from stream_boot sb
                  join record_segment g on g.stream_boot_id = sb.id
                  where sb.purge_pending limit ?) d
                where s.stream_boot_id = d.stream_boot_id and s.first_seq = d.first_seq""")) {
            ps.setInt(1, limit);
            deleted = ps.executeUpdate();
        }
        if (deleted < limit) {
            try (PreparedStatement ps = c.prepareStatement("""
                    update stream_boot sb set purge_pending = false where sb.purge_pending
                      and not exists (select 1 from record_segment g where g.stream_boot_id = sb.id)""")) {
                ps.executeUpdate();
            }
        }
        return deleted;
    }

    /**
     * Deletes request facts not written since {@code cutoff} whose request no retained incident cites (as the reader
     * of an exposure, or the subject of a finding); returns how many.
     */
    static int purgeRequestFacts(Connection c, Instant cutoff, Instant evidenceCutoff, int limit)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                delete from request_fact where request in (
                  select r.request from request_fact r where r.touched_at < ?
                    and not exists (select 1 from exposure e join incident i on i.id = e.incident_id
                      where e.reader_request = r.request and %1$s)
                    and not exists (select 1 from finding f join incident i on i.id = f.incident_id
                      where f.subject = r.request and %1$s)
                  limit ? for update skip locked)""".formatted(RETAINED))) {
            ps.setTimestamp(1, Timestamp.from(cutoff));
            ps.setTimestamp(2, Timestamp.from(evidenceCutoff));
            ps.setTimestamp(3, Timestamp.from(evidenceCutoff));
            ps.setInt(4, limit);
            return ps.executeUpdate();
        }
    }

    /** Deletes rejected records received before {@code cutoff}; returns how many. */
    static int purgeQuarantine(Connection c, Instant cutoff, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                delete from quarantine where id in (
                  select id from quarantine where received_at < ? order by received_at limit ? for update skip locked)""")) {
            ps.setTimestamp(1, Timestamp.from(cutoff));
            ps.setInt(2, limit);
            return ps.executeUpdate();
        }
    }

    /**
     * Replaces by their SHA-256 the bodies of alerts delivered on every channel before {@code cutoff}; returns how
     * many.
     */
    static int purgeAlertBodies(Connection c, Instant cutoff, Instant now, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                update customer_alert a set body_sha256 = encode(sha256(convert_to(a.body, 'UTF8')), 'hex'),
                  body = null, body_purged_at = ?
                where a.id in (
                  select x.id from customer_alert x where x.body is not null
                    and exists (select 1 from alert_delivery d where d.alert_id = x.id)
                    and not exists (select 1 from alert_delivery d where d.alert_id = x.id
                      and (d.status <> 'DELIVERED' or d.delivered_at is null or d.delivered_at >= ?))
                  limit ? for update skip locked)""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setTimestamp(2, Timestamp.from(cutoff));
            ps.setInt(3, limit);
            return ps.executeUpdate();
        }
    }

    static Storage storage(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select pg_total_relation_size('record_segment'), (select coalesce(sum(records), 0) from record_segment),
                  pg_total_relation_size('exposure'), (select count(*) from exposure),
                  pg_total_relation_size('finding'), (select count(*) from finding),
                  pg_total_relation_size('request_fact'), (select count(*) from request_fact),
                  pg_total_relation_size('quarantine'), (select count(*) from quarantine),
                  pg_total_relation_size('transfer_send') + pg_total_relation_size('transfer_read'),
                  (select count(*) from transfer_send), (select count(*) from transfer_read),
                  pg_database_size(current_database())""");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return Storage.of(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                    rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11),
                    rs.getLong(12), rs.getLong(13), rs.getLong(14), parts(c, "exposure"));
        }
    }

    /** Where {@code table}'s bytes are, and its row versions (docs/operations.md, "Storage"). */
    static Storage.TableParts parts(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select pg_relation_size(t.relid), pg_indexes_size(t.relid),
                  coalesce(pg_total_relation_size(k.reltoastrelid), 0), t.n_live_tup, t.n_dead_tup, t.n_tup_ins,
                  t.n_tup_upd, t.n_tup_hot_upd
                from pg_stat_user_tables t join pg_class k on k.oid = t.relid
                where t.relid = to_regclass(?)""")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Storage.TableParts(0, 0, 0, 0, 0, 0, 0, 0);
                }
                return new Storage.TableParts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8));
            }
        }
    }
}
