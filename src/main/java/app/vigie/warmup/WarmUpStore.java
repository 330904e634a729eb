package app.vigie.warmup;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What the warm-up leaves in PostgreSQL: every transaction of it is rolled back, but a rolled-back insert leaves its
 * row and its index entries in the files until vacuum. On a young database they are most of what the intake's
 * tables hold, and the intake then writes 15 % slower (bench/ingest-http, issue 45); on a large one they are a speck.
 */
final class WarmUpStore {
    private WarmUpStore() {
    }

    /**
     * The tables whose dead row versions outnumber a tenth of their live ones, with at least {@code minDead} of them
     * (PostgreSQL's statistics, which lag a commit by up to a second): quoted names, ready for a statement.
     */
    static List<String> mostlyDead(Connection c, long minDead) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select quote_ident(schemaname) || '.' || quote_ident(relname) from pg_stat_user_tables
                where n_dead_tup >= ? and n_dead_tup > n_live_tup / 10 order by relname""")) {
            ps.setLong(1, minDead);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /**
     * Vacuums and analyses these tables ({@code c} in autocommit: VACUUM runs outside a transaction). The dead
     * versions' space becomes reusable and the planner's statistics count the rows that are there.
     */
    static void vacuum(Connection c, List<String> tables) throws SQLException {
        if (tables.isEmpty()) {
            return;
        }
        try (Statement s = c.createStatement()) {
            s.execute("vacuum (analyze, skip_locked) " + String.join(", ", tables));
        }
    }
}
