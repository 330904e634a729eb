package app.vigie.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.transaction.RollbackException;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.narayana.jta.QuarkusTransactionException;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.audit.AuditTrail;

/**
 * Entities (Hibernate ORM) and JDBC stores write in one transaction on one connection: they see each other's rows
 * before the commit and commit or roll back together, whether {@link Transactions#run} starts the transaction or
 * joins a caller's.
 */
@QuarkusTest
class TransactionsTest {
    @Inject
    AgroalDataSource dataSource;

    @Test
    void entitiesAndJdbcCommitAndRollBackTogether() throws SQLException {
        String target = "test:" + UUID.randomUUID();
        assertThatThrownBy(() -> Transactions.run(dataSource, c -> {
            AuditTrail.record("test", "test.entity", target, null, null);
            insertByJdbc(c, target);
            assertThat(count(c, target)).as("the entity's row and the JDBC row, seen by the JDBC connection")
                    .isEqualTo(2);
            throw new IllegalStateException("a failure after both writes");
        })).hasMessage("a failure after both writes");
        assertThat(committed(target)).as("both rolled back").isZero();

        Transactions.run(dataSource, c -> {
            AuditTrail.record("test", "test.entity", target, null, null);
            insertByJdbc(c, target);
            return null;
        });
        assertThat(committed(target)).as("both committed").isEqualTo(2);
    }

    @Test
    void aRunInsideATransactionIsPartOfIt() throws SQLException {
        String target = "test:" + UUID.randomUUID();
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            try {
                Transactions.run(dataSource, c -> {
                    insertByJdbc(c, target);
                    return null;
                });
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            AuditTrail.record("test", "test.entity", target, null, null);
            QuarkusTransaction.setRollbackOnly();
        })).isInstanceOf(QuarkusTransactionException.class).hasCauseInstanceOf(RollbackException.class);
        assertThat(committed(target)).as("the caller rolled back: the joined run's row too").isZero();

        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            assertThatThrownBy(() -> Transactions.run(dataSource, c -> {
                insertByJdbc(c, target);
                throw new SQLException("a store failed", "23505");
            })).hasMessage("a store failed");
            AuditTrail.record("test", "test.entity", target, null, null);
        })).isInstanceOf(QuarkusTransactionException.class);
        assertThat(committed(target)).as("a failed joined run rolls its caller back").isZero();
    }

    @Test
    void aJoinedRunHearsOfTheRollbackOfItsCaller() {
        List<Connection> told = new ArrayList<>();
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            try {
                Transactions.run(dataSource, c -> count(c, "nothing"), told::add);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            assertThat(told).as("nothing rolled back yet").isEmpty();
            QuarkusTransaction.setRollbackOnly();  // a later step of the caller fails
        })).isInstanceOf(QuarkusTransactionException.class);
        assertThat(told).as("the joined run is told when its caller's transaction ends without committing")
                .hasSize(1);

        told.clear();
        QuarkusTransaction.requiringNew().run(() -> {
            try {
                Transactions.run(dataSource, c -> count(c, "nothing"), told::add);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(told).as("a committed transaction tells nothing").isEmpty();
    }

    @Test
    void anAuditEventNeedsTheTransactionOfItsChange() {
        assertThatThrownBy(() -> AuditTrail.record("test", "test.outside", "test:outside", null, null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("outside the transaction");
    }

    private long committed(String target) throws SQLException {
        return Transactions.run(dataSource, c -> count(c, target));
    }

    private static void insertByJdbc(Connection c, String target) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "insert into audit_event (at, actor, action, target) values (now(), 'test', 'test.jdbc', ?)")) {
            ps.setString(1, target);
            ps.executeUpdate();
        }
    }

    private static long count(Connection c, String target) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select count(*) from audit_event where target = ?")) {
            ps.setString(1, target);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
