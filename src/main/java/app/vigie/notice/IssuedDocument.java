package app.vigie.notice;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.Immutable;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

import app.vigie.platform.Digests;

/**
 * An issued version of a document that keeps a history (table {@code document_version}; the authority notification:
 * initial, then complementary): its number, phase, when and by whom, its JSON exactly as issued and that JSON's
 * SHA-256. Written once, never changed.
 */
@Entity
@Immutable
@Table(name = "document_version")
public class IssuedDocument extends PanacheEntityBase {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "incident_id", nullable = false)
    public UUID incidentId;

    @Column(nullable = false)
    public String tenant;

    @Column(nullable = false)
    public String kind;

    @Column(nullable = false)
    public int version;

    /** INITIAL or COMPLEMENTARY. */
    @Column(nullable = false)
    public String phase;

    @Column(name = "issued_at", nullable = false)
    public Instant issuedAt;

    @Column(name = "issued_by", nullable = false)
    public String issuedBy;

    @Column(nullable = false)
    public String body;

    @Column(nullable = false)
    public String sha256;

    /** An issued version as read. */
    public record Version(long id, int version, String phase, Instant issuedAt, String issuedBy, String body,
            String sha256) {
    }

    /** The versions of the tenant's {@code kind} in the incident, in their order. */
    public static List<Version> versions(UUID incident, String tenant, String kind) {
        return IssuedDocument.<IssuedDocument>list("incidentId = ?1 and tenant = ?2 and kind = ?3 order by version",
                incident, tenant, kind).stream().map(IssuedDocument::view).toList();
    }

    /** Issues version {@code version} of the tenant's {@code kind}: {@code body} kept as given, with its SHA-256. */
    public static Version issue(UUID incident, String tenant, String kind, int version, String phase, String body,
            String actor, Instant now) {
        IssuedDocument d = new IssuedDocument();
        d.incidentId = incident;
        d.tenant = tenant;
        d.kind = kind;
        d.version = version;
        d.phase = phase;
        d.issuedAt = now;
        d.issuedBy = actor;
        d.body = body;
        d.sha256 = Digests.sha256Hex(body);
        d.persist();
        return d.view();
    }

    Version view() {
        return new Version(id, version, phase, issuedAt, issuedBy, body, sha256);
    }
}
