package app.vigie.security;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/** SQL of the accounts. */
public final class UserStore {
    private UserStore() {
    }

    public static Optional<UserAccount> find(Connection c, String username) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select username, password_hash, roles, tenant, created_at, session_version from app_user where username = ?")) {
            ps.setString(1, username);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(account(rs)) : Optional.empty();
            }
        }
    }

    public static List<UserAccount> all(Connection c) throws SQLException {
        List<UserAccount> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select username, password_hash, roles, tenant, created_at, session_version from app_user order by username");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(account(rs));
            }
        }
        return out;
    }

    /** Creates or replaces the account. */
    public static void save(Connection c, UserAccount u) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into app_user (username, password_hash, roles, tenant, created_at, updated_at)
                values (?, ?, ?, ?, ?, ?)
                on conflict (username) do update set password_hash = excluded.password_hash,
                  roles = excluded.roles, tenant = excluded.tenant, updated_at = excluded.updated_at,
                  session_version = app_user.session_version + 1""")) {
            Timestamp now = Timestamp.from(Instant.now());
            ps.setString(1, u.username());
            ps.setString(2, u.passwordHash());
            ps.setArray(3, c.createArrayOf("text", u.roles().toArray(String[]::new)));
            ps.setString(4, u.tenant());
            ps.setTimestamp(5, u.createdAt() == null ? now : Timestamp.from(u.createdAt()));
            ps.setTimestamp(6, now);
            ps.executeUpdate();
        }
    }

    /** Ends every dashboard session of the account (sign-out). */
    public static void endSessions(Connection c, String username) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "update app_user set session_version = session_version + 1 where username = ?")) {
            ps.setString(1, username);
            ps.executeUpdate();
        }
    }

    private static UserAccount account(ResultSet rs) throws SQLException {
        Array roles = rs.getArray(3);
        return new UserAccount(rs.getString(1), rs.getString(2),
                new LinkedHashSet<>(Arrays.asList((String[]) roles.getArray())), rs.getString(4),
                rs.getTimestamp(5).toInstant(), rs.getInt(6));
    }
}
