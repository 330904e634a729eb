package app.vigie.audit;

import java.time.Instant;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * One state change in the audit trail: who did what, on what, when, and the state before and after (JSON). The table
 * is append-only (a trigger refuses updates and deletes, V11), so an event is only ever persisted.
 */
@Entity
@Table(name = "audit_event")
public class AuditEvent extends PanacheEntityBase {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public Instant at;

    @Column(nullable = false)
    public String actor;

    @Column(nullable = false)
    public String action;

    @Column(nullable = false)
    public String target;

    /** The state before, a JSON document; null when there was none. */
    @JdbcTypeCode(SqlTypes.JSON)
    public String before;

    /** The state after, a JSON document; null when there is none. */
    @JdbcTypeCode(SqlTypes.JSON)
    public String after;

    /** The events of {@code target} and of everything under it ({@code target/...}), oldest first. */
    public static List<AuditEvent> ofTarget(String target) {
        return list("target = ?1 or target like ?2 escape '\\' order by at, id", target, literal(target) + "/%");
    }

    /** {@code text} matched literally in a LIKE pattern (escape character: backslash). */
    static String literal(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
