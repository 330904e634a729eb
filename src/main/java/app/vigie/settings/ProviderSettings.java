package app.vigie.settings;

import java.time.Instant;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.query.NativeQuery;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** The provider's identity as saved on the settings page: one row (V38__provider_settings.sql). */
@Entity
@Table(name = "provider_settings")
public class ProviderSettings extends PanacheEntityBase {
    static final short ONLY = 1;
    /** The transaction lock one save holds (an advisory lock's key of its own). */
    private static final long SAVE_LOCK = 0x5649_4749_4553_4554L;  // "VIGIESET"

    @Id
    public Short id;

    @Column(name = "legal_name", nullable = false)
    public String legalName;

    public String address;

    @Column(name = "dpo_name")
    public String dpoName;

    @Column(name = "dpo_email")
    public String dpoEmail;

    @Column(nullable = false)
    public String contact;

    public String registration;

    @Column(name = "updated_by", nullable = false)
    public String updatedBy;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /**
     * Takes the save lock for the transaction at hand: a save reads the identity as it is (its audit event's
     * "before" is the last one saved), and two first saves do not both insert the row.
     */
    static void lockForSave() {
        getEntityManager().createNativeQuery("select pg_advisory_xact_lock(?1)")
                .unwrap(NativeQuery.class).addSynchronizedEntityClass(ProviderSettings.class)
                .setParameter(1, SAVE_LOCK).getSingleResult();
    }

    /** The saved identity, when one was saved. */
    static Optional<ProviderSettings> saved() {
        return findByIdOptional(ONLY);
    }

    ProviderIdentity identity() {
        return new ProviderIdentity(legalName, address, dpoName, dpoEmail, contact, registration);
    }
}
