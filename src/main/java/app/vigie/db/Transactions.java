package app.vigie.db;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.HeuristicRollbackException;
import jakarta.transaction.NotSupportedException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;

import app.vigie.problem.ProblemException;

/**
 * Runs JDBC work in one transaction, retried when PostgreSQL reports a deadlock, a serialization failure or a unique
 * violation (from a JDBC store or from an entity's statement alike). The last is what two transactions get when both
 * find no row of a key and both insert it (two first saves of one account, one tenant, one case fact): the retry
 * finds the row the other one committed and changes it instead; work that inserts a duplicate every time still fails
 * after the last attempt.
 *
 * <p>In the service the transaction is a JTA one, the same kind {@code @Transactional} starts: the connection the
 * work gets is the one Hibernate ORM uses in that transaction, so that JDBC stores (the intake's hot path) and
 * entities (the domain) write in one transaction and commit together. Called inside a transaction already active
 * (a {@code @Transactional} service, or another run), the work joins it: the caller commits, and nothing is retried
 * at this level; {@code onRollback} hears of it when that transaction ends without committing, whenever that is.
 * The longest a transaction may take is {@code quarkus.transaction-manager.default-transaction-timeout}. Outside
 * Quarkus (plain unit tests on a bare data source) it is a JDBC transaction of its own.
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

    /**
     * Told of a transaction that did not commit, with the connection the work had (closed by then: for its identity
     * only).
     */
    @FunctionalInterface
    public interface RolledBack {
        void rolledBack(Connection c);
    }

    public static <T> T run(DataSource ds, Work<T> work) throws SQLException {
        return run(ds, work, c -> { });
    }

    /** Like {@link #run(DataSource, Work)}; {@code onRollback} hears of every attempt that did not commit. */
    public static <T> T run(DataSource ds, Work<T> work, RolledBack onRollback) throws SQLException {
        ArcContainer arc = Arc.container();
        if (arc == null || !arc.isRunning()) {
            return jdbc(ds, work, onRollback);
        }
        TransactionManager tm = arc.instance(TransactionManager.class).get();
        if (joinable(tm)) {
            return joined(arc, tm, ds, work, onRollback);
        }
        for (int attempt = 1;; attempt++) {
            try {
                return once(tm, ds, work, onRollback);
            } catch (SQLException e) {
                if (attempt >= ATTEMPTS || !retryable(e)) {
                    throw e;
                }
            } catch (RuntimeException e) {
                // an entity's statement fails as a runtime exception: retried like a JDBC one when it is retryable
                SQLException cause = foundSql(e);
                if (attempt >= ATTEMPTS || cause == null || !retryable(cause)) {
                    throw e;
                }
            }
        }
    }

    /** A method's body, for {@link #around}. */
    @FunctionalInterface
    interface Body {
        Object call() throws Exception;
    }

    /**
     * A {@link UnitOfWork} method's body in its transaction: joined when one is active (a failure other than a
     * {@link ProblemException} marks it for rollback), else begun with its connection, committed or rolled back, and
     * retried whole when the failure is retryable.
     */
    static Object around(TransactionManager tm, DataSource ds, Body body) throws Exception {
        if (joinable(tm)) {
            try {
                return body.call();
            } catch (Exception e) {
                if (!(e instanceof ProblemException)) {
                    markRollback(tm, e);
                }
                throw e;
            }
        }
        for (int attempt = 1;; attempt++) {
            boolean committed = false;
            try {
                tm.begin();
                // the transaction's connection, taken first (as run does): a database out of reach is an
                // SQLException before the body starts, whether the body then uses entities or stores
                try (Connection first = ds.getConnection()) {
                    first.isClosed();
                }
                Object result = body.call();
                tm.commit();
                committed = true;
                return result;
            } catch (RollbackException | HeuristicMixedException | HeuristicRollbackException e) {
                SQLException cause = sqlCause(e);
                if (attempt >= ATTEMPTS || !retryable(cause)) {
                    throw cause;
                }
            } catch (NotSupportedException | SystemException e) {
                throw sqlCause(e);
            } catch (Exception e) {
                SQLException cause = foundSql(e);
                if (attempt >= ATTEMPTS || cause == null || !retryable(cause)) {
                    throw e;
                }
            } finally {
                if (!committed) {
                    end(tm);
                }
            }
        }
    }

    /**
     * The connection of the transaction in progress, for JDBC stores inside a {@link UnitOfWork} (the one Hibernate
     * ORM writes with; close it when done, the transaction keeps it until it ends). Outside a transaction it is an
     * error: the work would commit statement by statement.
     */
    public static Connection connection(DataSource ds) throws SQLException {
        ArcContainer arc = Arc.container();
        if (arc != null && arc.isRunning()) {
            try {
                int status = arc.instance(TransactionManager.class).get().getStatus();
                if (status != Status.STATUS_ACTIVE && status != Status.STATUS_MARKED_ROLLBACK) {
                    throw new IllegalStateException("a store's connection asked for outside a transaction: the "
                            + "calling method is not a @UnitOfWork reached through its bean");
                }
            } catch (SystemException e) {
                throw sqlCause(e);
            }
        }
        return ds.getConnection();
    }

    private static void markRollback(TransactionManager tm, Exception cause) {
        try {
            tm.setRollbackOnly();
        } catch (SystemException | IllegalStateException x) {
            cause.addSuppressed(x);
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

    /**
     * Inside the caller's transaction: its connection. {@code onRollback} is told when that transaction ends without
     * committing. A failed statement marks the whole of it for rollback (PostgreSQL refuses anything more in it);
     * an exception of the work's own (a 404, a 409) is the caller's to handle.
     */
    private static <T> T joined(ArcContainer arc, TransactionManager tm, DataSource ds, Work<T> work,
            RolledBack onRollback) throws SQLException {
        try (Connection c = ds.getConnection()) {
            arc.instance(TransactionSynchronizationRegistry.class).get()
                    .registerInterposedSynchronization(new Synchronization() {
                        @Override
                        public void beforeCompletion() {
                        }

                        @Override
                        public void afterCompletion(int status) {
                            if (status != Status.STATUS_COMMITTED) {
                                onRollback.rolledBack(c);
                            }
                        }
                    });
            try {
                return work.run(c);
            } catch (SQLException | RuntimeException e) {
                if (!(e instanceof ProblemException)) {
                    markRollback(tm, e);
                }
                throw e;
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
            try {
                tm.suspend();  // whatever is left, this thread no longer carries it
            } catch (SystemException x) {
                e.addSuppressed(x);
            }
        }
    }

    /**
     * Whether this thread is in a transaction to join: an active one (or one already marked for rollback, whose
     * caller will learn it at commit). A transaction left over in any other state (ended by the reaper) is dropped
     * from the thread, so that the next run starts afresh.
     */
    private static boolean joinable(TransactionManager tm) throws SQLException {
        try {
            int status = tm.getStatus();
            if (status == Status.STATUS_ACTIVE || status == Status.STATUS_MARKED_ROLLBACK) {
                return true;
            }
            if (status != Status.STATUS_NO_TRANSACTION) {
                tm.suspend();
            }
            return false;
        } catch (SystemException e) {
            throw sqlCause(e);
        }
    }

    /**
     * The SQL exception behind a failed transaction: the work's own, or the database's answer to the commit. A
     * transaction manager that cannot work is reported as a connection failure (the caller answers "try again"); a
     * transaction that rolled back for another reason (its timeout, a conflict of entities) as a rollback, which is
     * not retried and not presented as the database being away.
     */
    static SQLException sqlCause(Throwable e) {
        SQLException found = foundSql(e);
        if (found != null) {
            return found;
        }
        return new SQLException("the transaction did not commit: " + e.getMessage(),
                e instanceof SystemException || e instanceof NotSupportedException ? "08006" : "40000", e);
    }

    private static SQLException foundSql(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException s) {
                return s;
            }
        }
        return null;
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
        return "40P01".equals(state) || "40001".equals(state) || "23505".equals(state);
    }
}
