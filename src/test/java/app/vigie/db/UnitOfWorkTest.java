package app.vigie.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.narayana.jta.QuarkusTransactionException;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.audit.AuditTrail;
import app.vigie.problem.ProblemException;

/**
 * A service's {@link UnitOfWork}: one transaction for entities and JDBC stores, rolled back on any exception (a
 * checked {@code SQLException} included), retried whole on a deadlock, serialization failure or unique violation,
 * joined without retry inside a transaction already active, and reached also by a call from the bean itself.
 */
@QuarkusTest
class UnitOfWorkTest {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    Cases cases;

    /** A service whose methods are use cases, each writing an audit event by entity and one by JDBC. */
    @ApplicationScoped
    static class Cases {
        @Inject
        AgroalDataSource dataSource;

        /** Static: the test reaches the bean through its client proxy, whose fields are not the bean's. */
        static final AtomicInteger attempts = new AtomicInteger();

        @UnitOfWork
        public void write(String target, int failures, String state) throws SQLException {
            int attempt = attempts.incrementAndGet();
            AuditTrail.record("test", "test.entity", target, null, null);
            try (Connection c = Transactions.connection(dataSource)) {
                insertByJdbc(c, target);
            }
            if (attempt <= failures) {
                throw new SQLException("attempt " + attempt + " failed", state);
            }
        }

        @UnitOfWork
        public void refuse(String target) throws SQLException {
            try (Connection c = Transactions.connection(dataSource)) {
                insertByJdbc(c, target);
            }
            throw new ProblemException(409, "refused after a write");
        }

        /** Not a use case itself: it calls two, each its own transaction (a call of the bean's own method). */
        public void twoInARow(String target) throws SQLException {
            write(target, 0, null);
            try {
                write(target + ":second", Integer.MAX_VALUE, "22000");
            } catch (SQLException expected) {
                // the second one rolls back alone
            }
        }
    }

    @Test
    void aCheckedExceptionRollsBackTheEntityAndTheJdbcRowTogether() throws SQLException {
        String target = "test:" + UUID.randomUUID();
        Cases.attempts.set(0);
        assertThatThrownBy(() -> cases.write(target, 1, "22000")).isInstanceOf(SQLException.class)
                .hasMessage("attempt 1 failed");
        assertThat(Cases.attempts).as("a failure that is not a conflict is not retried").hasValue(1);
        assertThat(committed(target)).as("both writes rolled back").isZero();

        Cases.attempts.set(0);
        cases.write(target, 0, null);
        assertThat(committed(target)).as("both committed").isEqualTo(2);
    }

    @Test
    void aConflictIsRetriedWholeAndOnlyTheLastAttemptCommits() throws SQLException {
        for (String state : new String[] {"40P01", "40001", "23505"}) {
            String target = "test:" + UUID.randomUUID();
            Cases.attempts.set(0);
            cases.write(target, 2, state);
            assertThat(Cases.attempts).as(state + ": two failed attempts, then one that commits").hasValue(3);
            assertThat(committed(target)).as(state + ": the failed attempts' rows rolled back").isEqualTo(2);
        }
        String target = "test:" + UUID.randomUUID();
        Cases.attempts.set(0);
        assertThatThrownBy(() -> cases.write(target, 99, "40001")).hasMessage("attempt 5 failed");
        assertThat(Cases.attempts).as("five attempts at most").hasValue(5);
        assertThat(committed(target)).isZero();
    }

    @Test
    void insideATransactionItJoinsAndRetriesNothing() {
        String target = "test:" + UUID.randomUUID();
        Cases.attempts.set(0);
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            assertThatThrownBy(() -> cases.write(target, 1, "40001")).hasMessage("attempt 1 failed");
            AuditTrail.record("test", "test.entity", target, null, null);
        })).isInstanceOf(QuarkusTransactionException.class);
        assertThat(Cases.attempts).as("the caller owns the transaction: no retry inside it").hasValue(1);

        QuarkusTransaction.requiringNew().run(() -> {
            assertThatThrownBy(() -> cases.refuse(target)).isInstanceOf(ProblemException.class);
            AuditTrail.record("test", "test.entity", target, null, null);
        });
        assertThat(committedUnchecked(target)).as("a refusal (4xx) is the caller's to handle: its transaction "
                + "commits what it chose to keep").isEqualTo(2);
    }

    @Test
    void aCallOfTheBeansOwnMethodIsAUseCaseToo() throws SQLException {
        String target = "test:" + UUID.randomUUID();
        Cases.attempts.set(0);
        cases.twoInARow(target);
        assertThat(committed(target)).as("the first call committed").isEqualTo(2);
        assertThat(committed(target + ":second")).as("the second rolled back on its own").isZero();
    }

    @Test
    void aStoresConnectionOutsideATransactionIsAnError() {
        assertThatThrownBy(() -> Transactions.connection(dataSource)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside a transaction");
    }

    private long committedUnchecked(String target) {
        try {
            return committed(target);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long committed(String target) throws SQLException {
        return Transactions.run(dataSource, c -> {
            try (PreparedStatement ps = c.prepareStatement("select count(*) from audit_event where target = ?")) {
                ps.setString(1, target);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    static void insertByJdbc(Connection c, String target) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "insert into audit_event (at, actor, action, target) values (now(), 'test', 'test.jdbc', ?)")) {
            ps.setString(1, target);
            ps.executeUpdate();
        }
    }
}
