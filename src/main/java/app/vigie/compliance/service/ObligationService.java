package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.compliance.plan.CaseFacts;
import app.vigie.compliance.plan.Completion;
import app.vigie.compliance.plan.ControllerProfile;
import app.vigie.compliance.plan.Decision;
import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.plan.ObligationPlanner;
import app.vigie.compliance.plan.ObligationPlanner.IncidentFacts;
import app.vigie.compliance.plan.ObligationPlanner.TenantCase;
import app.vigie.compliance.severity.EnisaSeverity;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantEntry;

/** An incident's obligations: its recorded case facts read, the tenants' entries mapped, the planner run. */
@ApplicationScoped
public class ObligationService {
    /** How many incidents' facts one statement reads (one parameter each in the IN lists of the entities). */
    static final int BATCH = 500;

    @Inject
    ComplianceRules rules;

    @Inject
    ObjectMapper json;

    /** A tenant's severity: ENISA's inputs and suggestion, the controller's override, the level that counts. */
    public record SeverityView(EnisaSeverity.Inputs inputs, EnisaSeverity.Assessment suggested, String overrideLevel,
            String overrideJustification, String level, String basis, String recordedBy, Instant recordedAt) {
    }

    /**
     * Everything planned for one incident at one time. {@code changesAfter}: past it, time alone changes the plan of
     * the same facts (null: never; {@link ObligationPlanner.Planned#changesAfter}).
     */
    public record Plan(CaseStore.IncidentRow incident, List<String> tenants, Map<String, ControllerProfile> profiles,
            Map<String, CaseFacts.Exposure> exposure, Map<String, Instant> alertsDelivered,
            Map<String, CaseAwareness.Awareness> awareness, Map<String, Map<String, Decision>> decisions,
            Map<String, SeverityView> severity, List<Obligation> obligations, Instant asOf, Instant changesAfter,
            Set<String> possiblyAffected) {

        /**
         * When the tenant's controller became aware: the earlier of Vigie's first alert delivered and an awareness
         * recorded otherwise (EDPB Guidelines 9/2022 v2.0, section II.A.4); null while neither is known.
         */
        public Instant controllerAwareAt(String tenant) {
            CaseAwareness.Awareness a = awareness.get(tenant);
            return new CaseFacts(alertsDelivered.get(tenant), a == null ? null : a.awareAt(), null, Map.of(), null,
                    null, CaseFacts.Exposure.VICTIM).controllerAwareAt();
        }

        /** How {@link #controllerAwareAt} is known: the alert's delivery, or the recorded evidence. */
        public String awarenessEvidence(String tenant) {
            Instant at = controllerAwareAt(tenant);
            CaseAwareness.Awareness a = awareness.get(tenant);
            return at == null ? null : a != null && a.awareAt().equals(at) ? a.evidence() : "alert delivered";
        }

        public List<Obligation> of(String tenant) {
            return obligations.stream().filter(o -> Objects.equals(o.tenant(), tenant)).toList();
        }
    }

    /** The incident's plan at {@code now} (empty: no such incident), its row locked first when {@code lock}. */
    public Optional<Plan> plan(Connection c, UUID id, Instant now, boolean lock) throws SQLException {
        Optional<CaseStore.IncidentRow> row = CaseStore.incident(c, id, lock);
        return row.isEmpty() ? Optional.empty() : Optional.of(plans(c, List.of(row.get()), now, (i, e) -> {
            throw e;
        }).get(0));
    }

    /**
     * The plans of these incidents at {@code now}, in their order: each kind of fact is read for {@value #BATCH}
     * incidents at a time by one statement, so that planning many (the reminder check, the overview) costs a few
     * statements rather than a few per incident. An incident whose plan cannot be made (facts stored that no longer
     * read) is told to {@code failed} and left out, so that it does not hold back the others' plans.
     */
    public List<Plan> plans(Connection c, List<CaseStore.IncidentRow> incidents, Instant now,
            BiConsumer<CaseStore.IncidentRow, RuntimeException> failed) throws SQLException {
        return plans(c, incidents, now, failed, BATCH);
    }

    List<Plan> plans(Connection c, List<CaseStore.IncidentRow> incidents, Instant now,
            BiConsumer<CaseStore.IncidentRow, RuntimeException> failed, int size) throws SQLException {
        List<Plan> out = new ArrayList<>(incidents.size());
        for (int from = 0; from < incidents.size(); from += size) {
            List<CaseStore.IncidentRow> batch = incidents.subList(from, Math.min(incidents.size(), from + size));
            List<UUID> ids = batch.stream().map(CaseStore.IncidentRow::id).toList();
            Map<UUID, Map<String, CaseFacts.Exposure>> exposures = CaseStore.affectedTenants(c, ids);
            Map<UUID, Map<String, CaseFacts.Exposure>> possible = CaseStore.possiblyAffectedTenants(c, ids);
            Map<UUID, Map<String, Instant>> delivered = CaseStore.alertsDelivered(c, ids);
            Map<String, Tenant> directory = TenantEntry.byIds(Stream.concat(
                    exposures.values().stream(), possible.values().stream())
                    .flatMap(e -> e.keySet().stream()).collect(Collectors.toSet()));
            Map<UUID, Map<String, CaseAwareness.Awareness>> awareness = CaseAwareness.of(ids);
            Map<UUID, Map<String, Map<String, Decision>>> decisions = CaseDecision.of(ids);
            Map<UUID, Map<String, CaseSeverity.Row>> severities = CaseSeverity.of(ids);
            Map<UUID, Map<String, List<Completion>>> completions = ObligationCompletion.of(ids);
            for (CaseStore.IncidentRow incident : batch) {
                UUID id = incident.id();
                try {
                    Map<String, Map<String, Decision>> decided = decisions.getOrDefault(id, Map.of());
                    Map<String, CaseFacts.Exposure> possiblyAffected = possible.getOrDefault(id, Map.of());
                    Map<String, CaseFacts.Exposure> affected = new TreeMap<>(Comparator.comparing((String t) -> t.codePoints().toArray(), Arrays::compare));
                    affected.putAll(exposures.getOrDefault(id, Map.of()));
                    Map<String, Instant> alerted = new HashMap<>(delivered.getOrDefault(id, Map.of()));
                    Map<String, Instant> processorAware = new HashMap<>();
                    Map<String, CaseAwareness.Awareness> aware = new HashMap<>(awareness.getOrDefault(id, Map.of()));
                    Decision confirmed = decided.getOrDefault("", Map.of()).get(POSSIBLE_BREACH);
                    if (confirmed != null && confirmed.value()) {
                        // spec 1.3, amendment 3: the DPO decided the possible exposures are a breach; a tenant they
                        // alone touch is affected from that decision: the processor aware then, the controller once
                        // an alert delivered after it tells it so
                        for (Map.Entry<String, CaseFacts.Exposure> e : possiblyAffected.entrySet()) {
                            CaseFacts.Exposure known = affected.get(e.getKey());
                            if (known == null) {
                                affected.put(e.getKey(), e.getValue());
                                processorAware.put(e.getKey(), confirmed.at());
                                // told of a possible breach (its alert acknowledged), a controller is aware of a
                                // breach once told it is one: an awareness recorded before the decision does not count
                                CaseAwareness.Awareness a = aware.get(e.getKey());
                                if (a != null && a.awareAt().isBefore(confirmed.at())) {
                                    aware.remove(e.getKey());
                                }
                                Instant after = CaseStore.alertDeliveredSince(c, id, e.getKey(), confirmed.at());
                                if (after == null) {
                                    alerted.remove(e.getKey());
                                } else {
                                    alerted.put(e.getKey(), after);
                                }
                            } else if (known != e.getValue()) {
                                affected.put(e.getKey(), CaseFacts.Exposure.BOTH);
                            }
                        }
                    }
                    out.add(plan(incident, affected, alerted, directory, aware, decided, severities.getOrDefault(id, Map.of()), completions.getOrDefault(id, Map.of()),
                            now, processorAware, possiblyAffected.keySet()));
                } catch (RuntimeException e) {
                    failed.accept(incident, e);
                }
            }
        }
        return out;
    }

    private Plan plan(CaseStore.IncidentRow incident, Map<String, CaseFacts.Exposure> exposure,
            Map<String, Instant> delivered, Map<String, Tenant> directory,
            Map<String, CaseAwareness.Awareness> awareness, Map<String, Map<String, Decision>> decisions,
            Map<String, CaseSeverity.Row> severities, Map<String, List<Completion>> completions, Instant now,
            Map<String, Instant> processorAware, Set<String> possiblyAffected) {
        List<String> tenants = List.copyOf(exposure.keySet());
        Map<String, ControllerProfile> profiles = new LinkedHashMap<>();
        for (String t : tenants) {
            Tenant entry = directory.get(t);
            profiles.put(t, entry == null ? ControllerProfile.unmapped(t) : profile(entry));
        }
        Map<String, SeverityView> severity = new LinkedHashMap<>();
        severities.forEach((t, s) -> severity.put(t, severity(s)));
        List<TenantCase> cases = new ArrayList<>();
        for (String t : tenants) {
            cases.add(new TenantCase(profiles.get(t), facts(t, delivered.get(t), awareness, decisions, severity,
                    exposure.get(t), processorAware.get(t))));
        }
        boolean dismissed = "DISMISSED".equals(incident.status());
        ObligationPlanner.Planned planned = rules.planner().planned(
                new IncidentFacts(incident.detectedAt(), dismissed, incident.statusReason()), rules.provider(),
                facts("", null, awareness, decisions, severity, CaseFacts.Exposure.VICTIM, null), cases, completions,
                now);
        return new Plan(incident, tenants, profiles, exposure, delivered, awareness, decisions, severity,
                planned.obligations(), now, planned.changesAfter(), Set.copyOf(possiblyAffected));
    }

    /** Which rules the plans use (see {@link ComplianceRules#version()}). */
    public String rulesVersion() {
        return rules.version();
    }

    /**
     * The provider's decision on an incident's possible exposures (spec 1.3, amendment 3): true, they are a personal
     * data breach (the tenants they alone touch are then affected from the decision's time); false, they are not.
     * Offered while the incident has possible exposures.
     */
    public static final String POSSIBLE_BREACH = "possible_exposures_breach";

    /** The decisions that matter to a tenant's case ("" or null: the provider's). */
    public Set<String> decisionsAllowed(Plan plan, String tenant) {
        boolean provider = tenant == null || tenant.isEmpty();
        Set<String> allowed = rules.planner().decisions(provider ? null : plan.profiles().get(tenant),
                rules.provider());
        if (provider && !plan.possiblyAffected().isEmpty()) {
            Set<String> with = new TreeSet<>(allowed);
            with.add(POSSIBLE_BREACH);
            return with;
        }
        return allowed;
    }

    public static ControllerProfile profile(Tenant t) {
        return new ControllerProfile(t.id(), true, t.legalName(), t.country(),
                Set.copyOf(t.jurisdictions() == null ? List.of() : t.jurisdictions()),
                Set.copyOf(t.sectors() == null ? List.of() : t.sectors()),
                t.alertDelay() == null ? null : Duration.parse(t.alertDelay()),
                Boolean.TRUE.equals(t.processorIsAgent()), t.mainEstablishment());
    }

    private static CaseFacts facts(String tenant, Instant delivered, Map<String, CaseAwareness.Awareness> awareness,
            Map<String, Map<String, Decision>> decisions, Map<String, SeverityView> severity,
            CaseFacts.Exposure exposure, Instant processorAware) {
        CaseAwareness.Awareness a = awareness.get(tenant);
        SeverityView s = severity.get(tenant);
        return new CaseFacts(delivered, a == null ? null : a.awareAt(), a == null ? null : a.evidence(),
                decisions.getOrDefault(tenant, Map.of()), s == null ? null : s.level(), s == null ? null : s.basis(),
                exposure, processorAware);
    }

    SeverityView severity(CaseSeverity.Row s) {
        EnisaSeverity.Inputs inputs = null;
        EnisaSeverity.Assessment suggested = null;
        if (s.inputsJson() != null) {
            try {
                inputs = json.readValue(s.inputsJson(), EnisaSeverity.Inputs.class);
                suggested = rules.severity().problems(inputs).isEmpty() ? rules.severity().assess(inputs) : null;
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("stored ENISA inputs do not read back: " + s.inputsJson(), e);
            }
        }
        String level;
        String basis;
        if (s.overrideLevel() != null) {
            level = s.overrideLevel();
            basis = "the controller's decision: " + s.overrideJustification();
        } else if (suggested != null) {
            level = suggested.level();
            basis = "ENISA's suggestion, SE " + suggested.score() + "; the controller has not decided";
        } else {
            level = null;
            basis = "the stored inputs no longer fit the scales of compliance-rules/severity.yaml: assess again";
        }
        return new SeverityView(inputs, suggested, s.overrideLevel(), s.overrideJustification(), level, basis,
                s.recordedBy(), s.recordedAt());
    }
}
