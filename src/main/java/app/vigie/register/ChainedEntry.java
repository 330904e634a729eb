package app.vigie.register;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.Immutable;
import org.hibernate.query.NativeQuery;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * An entry of the violation register as chained (table {@code register_entry}, GDPR Art. 33(5)): whose register it
 * is ({@code ''} for the provider's own), its body exactly as hashed, the previous entry's hash and its own. Appended
 * only (the table refuses updates and deletes), one writer at a time.
 */
@Entity
@Immutable
@Table(name = "register_entry")
public class ChainedEntry extends PanacheEntityBase {
    /** One lock for every append: the chain has one head. */
    private static final long APPEND_LOCK = 0x5649474945524547L;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** The tenant whose register it is, or {@code ''} for the provider's own. */
    @Column(nullable = false)
    public String controller;

    @Column(name = "incident_id", nullable = false)
    public UUID incidentId;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;

    @Column(name = "recorded_by", nullable = false)
    public String recordedBy;

    /** The entry's JSON, exactly as hashed. */
    @Column(nullable = false)
    public String body;

    @Column(name = "prev_hash", nullable = false)
    public String prevHash;

    @Column(nullable = false)
    public String hash;

    /**
     * Appends {@code body} at the head of the chain for {@code controller}'s register: takes the transaction's
     * append lock, reads the head's hash, chains. The caller's transaction commits it.
     */
    public static ChainedEntry append(String controller, UUID incident, String body, String actor, Instant now) {
        getEntityManager().createNativeQuery("select pg_advisory_xact_lock(?1)")
                .unwrap(NativeQuery.class).addSynchronizedEntityClass(ChainedEntry.class)
                .setParameter(1, APPEND_LOCK).getSingleResult();
        String previous = ChainedEntry.<ChainedEntry>find("order by id desc").firstResultOptional()
                .map(e -> e.hash).orElse(RegisterChain.GENESIS);
        ChainedEntry e = new ChainedEntry();
        e.controller = controller;
        e.incidentId = incident;
        e.recordedAt = now;
        e.recordedBy = actor;
        e.body = body;
        e.prevHash = previous;
        e.hash = RegisterChain.hash(previous, body);
        e.persist();
        return e;
    }

    /** Entries, oldest first, of one controller's register ({@code null}: all), of one incident ({@code null}: all). */
    public static List<ChainedEntry> of(String controller, UUID incident) {
        List<String> where = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        if (controller != null) {
            values.add(controller);
            where.add("controller = ?" + values.size());
        }
        if (incident != null) {
            values.add(incident);
            where.add("incidentId = ?" + values.size());
        }
        return ChainedEntry.<ChainedEntry>list((where.isEmpty() ? "" : String.join(" and ", where) + " ")
                + "order by id", values.toArray());
    }

    /** Up to {@code limit} links of the chain after the entry {@code after}, in order, read without keeping them. */
    public static List<RegisterChain.Link> links(long after, int limit) {
        return getEntityManager().createQuery("select id, body, prevHash, hash from ChainedEntry where id > ?1 "
                + "order by id", Object[].class).setParameter(1, after).setMaxResults(limit).getResultList().stream()
                .map(r -> new RegisterChain.Link((Long) r[0], (String) r[1], (String) r[2], (String) r[3])).toList();
    }
}
