package app.vigie.db;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.HeuristicRollbackException;
import jakarta.transaction.NotSupportedException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;

/**
 * Runs JDBC work in one transaction, retried when PostgreSQL reports a deadlock or a serialization failure.
 *
 * <p>In the service the transaction is a JTA one, the same kind {@code @Transactional} starts: the connection the
 * work gets is the one Hibernate ORM uses in that transaction, so that JDBC stores (the intake's hot path) and
 * entities (the domain) write in one transaction and commit together. Called inside a transaction already active
 * (a {@code @Transactional} service), the work joins it: the caller commits, and retries. Outside Quarkus (plain
 * unit tests on a bare data source) it is a JDBC transaction of its own.
 */
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
        TransactionManager tm = manager();
        if (tm == null) {
            return jdbc(ds, work, onRollback);
        }
        if (active(tm)) {
            return joined(tm, ds, work, onRollback);
        }
        for (int attempt = 1;; attempt++) {
            try {
                return once(tm, ds, work, onRollback);
            } catch (SQLException e) {
                if (attempt >= ATTEMPTS || !retryable(e)) {
                    throw e;
                }
            }
        }
    }

    /** One attempt in a JTA transaction of its own: committed, or rolled back and the rollback told. */
    private static <T> T once(TransactionManager tm, DataSource ds, Work<T> work, RolledBack onRollback)
            throws SQLException {
        Connection used = null;
        boolean committed = false;
        try {
            tm.begin();
            T result;
            try (Connection c = ds.getConnection()) {
                used = c;
                result = work.run(c);
            }
            tm.commit();
            committed = true;
            return result;
        } catch (NotSupportedException | SystemException | RollbackException | HeuristicMixedException
                | HeuristicRollbackException e) {
            throw sqlCause(e);
        } finally {
            if (!committed) {
                end(tm);
                if (used != null) {
                    onRollback.rolledBack(used);
                }
            }
        }
    }

    /** Rolls back what is still open on this thread after a failure (the commit's failure ends it already). */
    private static void end(TransactionManager tm) {
        try {
            if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
                tm.rollback();
            }
        } catch (SystemException | IllegalStateException | SecurityException e) {
            // nothing more to undo: the transaction manager dissociates the thread either way
        }
    }

    private static TransactionManager manager() {
        ArcContainer arc = Arc.container();
        return arc == null || !arc.isRunning() ? null : arc.instance(TransactionManager.class).get();
    }

    private static boolean active(TransactionManager tm) throws SQLException {
        try {
            return tm.getStatus() != Status.STATUS_NO_TRANSACTION;
        } catch (SystemException e) {
            throw sqlCause(e);
        }
    }

    /** Inside the caller's transaction: its connection; a failure marks the whole of it for rollback. */
    private static <T> T joined(TransactionManager tm, DataSource ds, Work<T> work, RolledBack onRollback)
            throws SQLException {
        try (Connection c = ds.getConnection()) {
            try {
                return work.run(c);
            } catch (SQLException | RuntimeException e) {
                try {
                    tm.setRollbackOnly();
                } catch (SystemException | IllegalStateException x) {
                    e.addSuppressed(x);
                }
                onRollback.rolledBack(c);
                throw e;
            }
        }
    }

    /**
     * The SQL exception behind a failed transaction: the work's own, or the database's answer to the commit; a
     * transaction that failed without one (the transaction manager gave up) is reported as a connection failure, so
     * that the caller answers "try again" rather than "internal error".
     */
    static SQLException sqlCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException s) {
                return s;
            }
        }
        return new SQLException("the transaction did not commit: " + e.getMessage(), "08006", e);
    }

    /** Outside Quarkus: a JDBC transaction on a connection of its own. */
    private static <T> T jdbc(DataSource ds, Work<T> work, RolledBack onRollback) throws SQLException {
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
