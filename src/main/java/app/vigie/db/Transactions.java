package app.vigie.db;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

/** Runs JDBC work in one transaction, retried when PostgreSQL reports a deadlock or a serialization failure. */
public final class Transactions {
    private static final int ATTEMPTS = 5;

    private Transactions() {
    }

    /** Work done with a connection inside a transaction. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** Told of a transaction that did not commit. */
    @FunctionalInterface
    public interface RolledBack {
        void rolledBack(Connection c);
    }

    public static <T> T run(DataSource ds, Work<T> work) throws SQLException {
        return run(ds, work, c -> { });
    }

    /** Like {@link #run(DataSource, Work)}; {@code onRollback} hears of every attempt that did not commit. */
    public static <T> T run(DataSource ds, Work<T> work, RolledBack onRollback) throws SQLException {
        for (int attempt = 1;; attempt++) {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                boolean committed = false;
                try {
                    T result = work.run(c);
                    c.commit();
                    committed = true;
                    return result;
                } catch (SQLException | RuntimeException e) {
                    rollback(c, e);
                    throw e;
                } finally {
                    if (!committed) {
                        onRollback.rolledBack(c);
                    }
                }
            } catch (SQLException e) {
                if (attempt >= ATTEMPTS || !retryable(e)) {
                    throw e;
                }
            }
        }
    }

    private static void rollback(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "40P01".equals(state) || "40001".equals(state);
    }
}
