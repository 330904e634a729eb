package app.vigie.settings;

import java.time.Instant;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** The provider's identity as saved on the settings page: one row (V38__provider_settings.sql). */
@Entity
@Table(name = "provider_settings")
public class ProviderSettings extends PanacheEntityBase {
    static final short ONLY = 1;

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

    /** The saved identity, when one was saved. */
    static Optional<ProviderSettings> saved() {
        return findByIdOptional(ONLY);
    }

    ProviderIdentity identity() {
        return new ProviderIdentity(legalName, address, dpoName, dpoEmail, contact, registration);
    }
}
