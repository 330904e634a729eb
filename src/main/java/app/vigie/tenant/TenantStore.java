package app.vigie.tenant;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/** SQL of the tenant directory. */
public final class TenantStore {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "id, legal_name, country, company_id, dpo_name, dpo_email, dpo_phone, "
            + "alert_channels::text, alert_delay, jurisdictions, sectors, processor_is_agent";

    private TenantStore() {
    }

    public static List<Tenant> all(Connection c) throws SQLException {
        List<Tenant> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select " + COLUMNS + " from tenant order by id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(tenant(rs));
            }
        }
        return out;
    }

    public static Optional<Tenant> find(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select " + COLUMNS + " from tenant where id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(tenant(rs)) : Optional.empty();
            }
        }
    }

    /** Legal names of those of these tenants that are in the directory. */
    public static Map<String, String> legalNames(Connection c, Collection<String> ids) throws SQLException {
        Map<String, String> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("select id, legal_name from tenant where id = any(?)")) {
            ps.setArray(1, c.createArrayOf("text", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return out;
    }

    public static void save(Connection c, Tenant t, String source) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into tenant (id, legal_name, country, company_id, dpo_name, dpo_email, dpo_phone,
                  alert_channels, alert_delay, jurisdictions, sectors, source, created_at, updated_at,
                  processor_is_agent)
                values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?)
                on conflict (id) do update set legal_name = excluded.legal_name, country = excluded.country,
                  company_id = excluded.company_id, dpo_name = excluded.dpo_name, dpo_email = excluded.dpo_email,
                  dpo_phone = excluded.dpo_phone, alert_channels = excluded.alert_channels,
                  alert_delay = excluded.alert_delay, jurisdictions = excluded.jurisdictions,
                  sectors = excluded.sectors, source = excluded.source, updated_at = excluded.updated_at,
                  processor_is_agent = excluded.processor_is_agent""")) {
            Timestamp now = Timestamp.from(Instant.now());
            ps.setString(1, t.id());
            ps.setString(2, t.legalName());
            ps.setString(3, t.country());
            ps.setString(4, t.companyId());
            ps.setString(5, t.dpo() == null ? null : t.dpo().name());
            ps.setString(6, t.dpo() == null ? null : t.dpo().email());
            ps.setString(7, t.dpo() == null ? null : t.dpo().phone());
            ps.setString(8, json(t.alertChannels() == null ? List.of() : t.alertChannels()));
            ps.setString(9, t.alertDelay());
            ps.setArray(10, c.createArrayOf("text", list(t.jurisdictions()).toArray()));
            ps.setArray(11, c.createArrayOf("text", list(t.sectors()).toArray()));
            ps.setString(12, source);
            ps.setTimestamp(13, now);
            ps.setTimestamp(14, now);
            ps.setBoolean(15, Boolean.TRUE.equals(t.processorIsAgent()));
            ps.executeUpdate();
        }
    }

    public static boolean delete(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("delete from tenant where id = ?")) {
            ps.setString(1, id);
            return ps.executeUpdate() > 0;
        }
    }

    /** The entry as JSON, for the audit trail. */
    public static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> list(List<String> l) {
        return l == null ? List.of() : l;
    }

    private static Tenant tenant(ResultSet rs) throws SQLException {
        List<Tenant.AlertChannel> channels;
        try {
            channels = JSON.readValue(rs.getString(8), new TypeReference<List<Tenant.AlertChannel>>() { });
        } catch (JsonProcessingException e) {
            throw new SQLException("unreadable alert channels of tenant " + rs.getString(1), e);
        }
        String dpoName = rs.getString(5);
        String dpoEmail = rs.getString(6);
        String dpoPhone = rs.getString(7);
        Tenant.Dpo dpo = dpoName == null && dpoEmail == null && dpoPhone == null ? null
                : new Tenant.Dpo(dpoName, dpoEmail, dpoPhone);
        return new Tenant(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), dpo, channels,
                rs.getString(9), strings(rs.getArray(10)), strings(rs.getArray(11)), rs.getBoolean(12));
    }

    private static List<String> strings(Array a) throws SQLException {
        return a == null ? List.of() : Arrays.asList((String[]) a.getArray());
    }
}
