package app.vigie.tenant;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * An entry of the tenant directory (table {@code tenant}): a tenant of the inference service mapped to its controller,
 * with its alert channels (a JSON list), the laws and sectors that apply, and where the entry came from (the API or
 * the tenants file). Read as a {@link Tenant}.
 */
@Entity
@Table(name = "tenant")
public class TenantEntry extends PanacheEntityBase {
    /** The channels' JSON as it has always been stored: {@code [{"type": ..., "target": ...}]}. */
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Ids per IN list (PostgreSQL takes at most 65,535 parameters in a statement). */
    private static final int CHUNK = 1000;

    @Id
    public String id;

    @Column(name = "legal_name", nullable = false)
    public String legalName;

    @Column(nullable = false)
    public String country;

    @Column(name = "company_id")
    public String companyId;

    @Column(name = "dpo_name")
    public String dpoName;

    @Column(name = "dpo_email")
    public String dpoEmail;

    @Column(name = "dpo_phone")
    public String dpoPhone;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "alert_channels", nullable = false)
    public String alertChannels;

    @Column(name = "alert_delay")
    public String alertDelay;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false)
    public String[] jurisdictions;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false)
    public String[] sectors;

    /** {@code api} or {@code file}. */
    @Column(nullable = false)
    public String source;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "processor_is_agent", nullable = false)
    public boolean processorIsAgent;

    @Column(name = "main_establishment")
    public String mainEstablishment;

    @Column(name = "eu_representative")
    public String euRepresentative;

    /** The whole directory, by id. */
    public static List<Tenant> directory() {
        return TenantEntry.<TenantEntry>list("order by id").stream().map(TenantEntry::view).toList();
    }

    /** The tenant {@code id}, if the directory has it. */
    public static Optional<Tenant> byId(String id) {
        return TenantEntry.<TenantEntry>findByIdOptional(id).map(TenantEntry::view);
    }

    /** Those of these tenants that are in the directory, by id, read in one query. */
    public static Map<String, Tenant> byIds(Collection<String> ids) {
        Map<String, Tenant> out = new HashMap<>();
        for (List<String> chunk : chunks(ids)) {
            TenantEntry.<TenantEntry>list("id in ?1", chunk).forEach(t -> out.put(t.id, t.view()));
        }
        return out;
    }

    /** Legal names of those of these tenants that are in the directory. */
    public static Map<String, String> legalNames(Collection<String> ids) {
        Map<String, String> out = new HashMap<>();
        for (List<String> chunk : chunks(ids)) {
            getEntityManager().createQuery("select id, legalName from TenantEntry where id in ?1", Object[].class)
                    .setParameter(1, chunk).getResultList().forEach(r -> out.put((String) r[0], (String) r[1]));
        }
        return out;
    }

    /**
     * Creates the entry (created now) or replaces it (its creation kept), from {@code source}. Returns the entry as it
     * was before, read by the same statement that decided between creating and replacing (empty: created).
     */
    public static Optional<Tenant> put(Tenant t, String source, Instant now) {
        TenantEntry e = TenantEntry.<TenantEntry>findByIdOptional(t.id()).orElse(null);
        Optional<Tenant> before = Optional.ofNullable(e).map(TenantEntry::view);
        if (e == null) {
            e = new TenantEntry();
            e.id = t.id();
            e.createdAt = now;
        }
        e.legalName = t.legalName();
        e.country = t.country();
        e.companyId = t.companyId();
        e.dpoName = t.dpo() == null ? null : t.dpo().name();
        e.dpoEmail = t.dpo() == null ? null : t.dpo().email();
        e.dpoPhone = t.dpo() == null ? null : t.dpo().phone();
        e.alertChannels = json(t.alertChannels() == null ? List.of() : t.alertChannels());
        e.alertDelay = t.alertDelay();
        e.jurisdictions = strings(t.jurisdictions());
        e.sectors = strings(t.sectors());
        e.source = source;
        e.updatedAt = now;
        e.processorIsAgent = Boolean.TRUE.equals(t.processorIsAgent());
        e.mainEstablishment = t.mainEstablishment();
        e.euRepresentative = t.euRepresentative();
        e.persist();
        return before;
    }

    /** Removes the entry; false when there was none. */
    public static boolean remove(String id) {
        return TenantEntry.deleteById(id);
    }

    /** The entry as the directory shows it (no DPO when none of its fields is known). */
    public Tenant view() {
        List<Tenant.AlertChannel> channels;
        try {
            channels = JSON.readValue(alertChannels, new TypeReference<List<Tenant.AlertChannel>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable alert channels of tenant " + id, e);
        }
        Tenant.Dpo dpo = dpoName == null && dpoEmail == null && dpoPhone == null ? null
                : new Tenant.Dpo(dpoName, dpoEmail, dpoPhone);
        return new Tenant(id, legalName, country, companyId, dpo, channels, alertDelay,
                jurisdictions == null ? List.of() : Arrays.asList(jurisdictions),
                sectors == null ? List.of() : Arrays.asList(sectors), processorIsAgent, mainEstablishment,
                euRepresentative);
    }

    /** A value as JSON (the channels here; the audit trail's before and after in TenantService). */
    static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The ids in lists of at most {@value #CHUNK}: a statement binds one parameter per id of an IN list. */
    private static List<List<String>> chunks(Collection<String> ids) {
        List<String> all = List.copyOf(new LinkedHashSet<>(ids));
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i += CHUNK) {
            out.add(all.subList(i, Math.min(all.size(), i + CHUNK)));
        }
        return out;
    }

    private static String[] strings(List<String> l) {
        return l == null ? new String[0] : l.toArray(String[]::new);
    }
}
