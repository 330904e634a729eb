package app.vigie.notice;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import app.vigie.platform.Digests;

/** The controller's statements and the issued versions of documents (V10__documents.sql). */
public final class DocumentStore {
    private DocumentStore() {
    }

    /** An issued version: its number, phase, when and by whom, its JSON and that JSON's SHA-256. */
    public record Version(long id, int version, String phase, Instant issuedAt, String issuedBy, String body,
            String sha256) {
    }

    public static Optional<String> statements(Connection c, UUID incident, String tenant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select body::text from case_statement where incident_id = ? and tenant = ?")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    public static void setStatements(Connection c, UUID incident, String tenant, String body, String actor,
            Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into case_statement (incident_id, tenant, body, recorded_by, recorded_at)
                values (?, ?, ?::jsonb, ?, ?)
                on conflict (incident_id, tenant) do update set body = excluded.body,
                  recorded_by = excluded.recorded_by, recorded_at = excluded.recorded_at""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            ps.setString(3, body);
            ps.setString(4, actor);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.executeUpdate();
        }
    }

    public static List<Version> versions(Connection c, UUID incident, String tenant, String kind)
            throws SQLException {
        List<Version> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, version, phase, issued_at, issued_by, body, sha256 from document_version
                where incident_id = ? and tenant = ? and kind = ? order by version""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            ps.setString(3, kind);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Version(rs.getLong(1), rs.getInt(2), rs.getString(3),
                            rs.getTimestamp(4).toInstant(), rs.getString(5), rs.getString(6), rs.getString(7)));
                }
            }
        }
        return out;
    }

    public static Version issue(Connection c, UUID incident, String tenant, String kind, int version, String phase,
            String body, String actor, Instant now) throws SQLException {
        String sha = sha256(body);
        try (PreparedStatement ps = c.prepareStatement("""
                insert into document_version (incident_id, tenant, kind, version, phase, issued_at, issued_by, body,
                  sha256)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            ps.setString(3, kind);
            ps.setInt(4, version);
            ps.setString(5, phase);
            ps.setTimestamp(6, Timestamp.from(now));
            ps.setString(7, actor);
            ps.setString(8, body);
            ps.setString(9, sha);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Version(rs.getLong(1), version, phase, now, actor, body, sha);
            }
        }
    }

    static String sha256(String s) {
        return Digests.sha256Hex(s);
    }
}
