package app.vigie.alert;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;


import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.detection.ExposuresListener;
import app.vigie.incident.AcknowledgementListener;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentStatus;
import app.vigie.incident.IncidentStatusListener;
import app.vigie.incident.IncidentView;
import app.vigie.incident.PossibleDecisionListener;
import app.vigie.platform.Digests;
import app.vigie.problem.ProblemException;
import app.vigie.tenant.DirectoryListener;
import app.vigie.tenant.Tenant;

/**
 * Customer alerts as the features and people see them: planned in the transaction of the change that calls for them
 * (it listens to detection and to the incident lifecycle; {@link AlertPlanner} writes the outbox), listed with their
 * deliveries, acknowledged (a receipt, and the controller's awareness when nothing earlier is known), and a dead
 * delivery sent again. {@link AlertDelivery} delivers them.
 */
@ApplicationScoped
public class AlertService implements ExposuresListener, IncidentStatusListener, DirectoryListener,
        PossibleDecisionListener {
    /** The states of a delivery a list may be filtered by. */
    static final List<String> DELIVERY_STATUSES = List.of("HELD", "PENDING", "DELIVERED", "DEAD");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Clock clock;

    @Inject
    AckLinks ackLinks;


    @Inject
    AlertConfig config;

    @Inject
    @Any
    Instance<AcknowledgementListener> acknowledgements;

    @Inject
    TransactionSynchronizationRegistry transactions;

    @Inject
    AlertDelivery delivery;

    /** Called by detection inside the transaction that wrote exposures. */
    @Override
    public void exposuresChanged(Connection tx, Map<UUID, Set<String>> touched, Instant now) throws SQLException {
        linkTokens(tx, AlertPlanner.exposuresChanged(tx, touched, config.holdInitial(), now));
    }

    /**
     * The DPO decided on the incident's possible exposures (spec 1.3, amendment 3): each tenant they touch gets an
     * alert telling the conclusion, in the decision's transaction.
     */
    @Override
    public void possibleDecided(Connection tx, UUID incident, Set<String> tenants, boolean breach, Instant now)
            throws SQLException {
        linkTokens(tx, AlertPlanner.possibleDecided(tx, incident, tenants, config.holdInitial(), now));
    }

    /** Each new alert's acknowledgement link: the hash of its token, never the token. */
    private void linkTokens(Connection tx, List<AlertPlanner.Written> written) throws SQLException {
        if (!written.isEmpty()) {
            wakeSenderAtCommit();
        }
        Map<Long, String> hashes = new LinkedHashMap<>();
        for (AlertPlanner.Written w : written) {
            hashes.put(w.id(), Digests.sha256Hex(ackLinks.ackToken(w.idempotencyKey())));
        }
        OutboxStore.setAckTokenHashes(tx, hashes);
    }

    /** A customer now in the directory with channels: its alerts that waited for one go out. */
    @Override
    public void entryWritten(Connection tx, Tenant before, Tenant after, Instant now) throws SQLException {
        AlertPlanner.channelsKnown(tx, after, config.holdInitial(), now);
        wakeSenderAtCommit();
    }

    /** Marks the transaction in progress as one that writes alerts (once per transaction). */
    private static final Object WAKES_SENDER = new Object();

    /**
     * The sender looks for due deliveries as soon as the transaction in progress commits (in this instance; others
     * find them at their next poll): the alert's way out does not wait for the poll. Nothing when it rolls back.
     */
    private void wakeSenderAtCommit() {
        try {
            if (transactions.getResource(WAKES_SENDER) != null) {
                return;
            }
            transactions.putResource(WAKES_SENDER, Boolean.TRUE);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        delivery.wake();
                    }
                }
            });
        } catch (IllegalStateException noTransaction) {
            // written outside a JTA transaction (a plain JDBC test): the poll finds it
        }
    }

    /** A dismissed or closed incident: its FINAL alerts, in the transaction of the change. */
    @Override
    public void statusChanged(Connection tx, UUID incident, IncidentStatus from, IncidentStatus to, Instant now)
            throws SQLException {
        if (to == IncidentStatus.CLOSED || to == IncidentStatus.DISMISSED) {
            linkTokens(tx, AlertPlanner.incidentEnded(tx, incident, now));
        }
    }

    /** The alert a token acknowledges, if any. */
    public record AlertRef(long id, UUID incident, String tenant, String phase, Instant createdAt,
            Instant acknowledgedAt, String acknowledgedBy) {
    }

    private static AlertRef ref(CustomerAlert a) {
        return new AlertRef(a.id, a.incidentId, a.tenant, a.phase, a.createdAt, a.acknowledgedAt, a.acknowledgedBy);
    }

    @UnitOfWork
    public Optional<AlertRef> get(long id) throws SQLException {
        return CustomerAlert.byId(id)
                .map(AlertService::ref);
    }

    /**
     * The alert an acknowledgement link's token names, while the link is valid ({@code vigie.alerts.ack-valid-for}
     * from the alert's creation); looked up by the token's SHA-256, which is all the database keeps.
     */
    @UnitOfWork
    public Optional<AlertRef> byToken(String token) throws SQLException {
        if (token == null || token.length() < 20 || token.length() > 64) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        return CustomerAlert.byTokenHash(Digests.sha256Hex(token))
                .map(AlertService::ref)
                .filter(a -> a.createdAt().plus(ackLinks.validFor()).isAfter(now));
    }

    /**
     * Acknowledges an alert (once; a repeat changes nothing): a receipt, audited; its first acknowledgement is told to
     * the listeners in the same transaction (compliance records the controller's awareness from it when no delivery
     * is known: {@code compliance.service.AwarenessOnAcknowledgement}).
     */
    @UnitOfWork
    public AlertRef acknowledge(long alertId, String by, String how) throws SQLException {
        Instant now = clock.instant();
        try (Connection c = Transactions.connection(dataSource)) {
            boolean first = CustomerAlert.acknowledge(alertId, by, now);
            CustomerAlert a = CustomerAlert.byId(alertId).orElseThrow();  // as stored, after the update
            if (!first) {
                return ref(a);
            }
            for (AcknowledgementListener l : acknowledgements) {
                l.acknowledged(c, a.incidentId, a.tenant, "acknowledged alert " + alertId + " (" + how + ")", by, now);
            }
            AuditTrail.record(by, "alert.acknowledged", "incident:" + a.incidentId + "/" + a.tenant, null,
                    "{\"alert\":" + alertId + ",\"how\":" + AuditTrail.quote(how) + "}");
            return ref(a);
        }
    }

    /** One alert with its deliveries, for the API and the DPO's page. */
    public record AlertView(long id, UUID incidentId, String tenant, String phase, String idempotencyKey,
            Instant createdAt, Instant acknowledgedAt, String acknowledgedBy, Instant escalatedAt,
            List<DeliveryView> deliveries) {
    }

    /** {@code undelivered} or {@code unacknowledged} as a state; null when blank; a clear 400 otherwise. */
    static CustomerAlert.State state(String param) {
        if (param == null || param.isBlank()) {
            return null;
        }
        return switch (param.strip()) {
            case "undelivered" -> CustomerAlert.State.UNDELIVERED;
            case "unacknowledged" -> CustomerAlert.State.UNACKNOWLEDGED;
            default -> throw new ProblemException(400, "query parameter 'state' must be undelivered or "
                    + "unacknowledged, got '" + param.strip() + "'");
        };
    }

    public record DeliveryView(long id, String channel, String target, String status, int attempts,
            Instant nextAttemptAt, String lastError, Instant deliveredAt) {
    }

    /** Alerts, newest first: of an incident, or those with a delivery in {@code status} (all when blank), or all. */
    public List<AlertView> list(UUID incident, String statusParam, int limit) throws SQLException {
        return list(incident, statusParam, null, limit);
    }

    /**
     * Like {@link #list(UUID, String, int)}, of those in {@code stateParam} too ({@code undelivered},
     * {@code unacknowledged}: see {@link CustomerAlert.State}; all when blank).
     */
    @UnitOfWork
    public List<AlertView> list(UUID incident, String statusParam, String stateParam, int limit)
            throws SQLException {
        String status = statusParam == null || statusParam.isBlank() ? null : statusParam.strip();
        if (status != null && !DELIVERY_STATUSES.contains(status)) {
            throw new ProblemException(400, "query parameter 'status' must be one of " + DELIVERY_STATUSES
                    + ", got '" + status + "'");
        }
        CustomerAlert.State state = state(stateParam);
        List<CustomerAlert> alerts = CustomerAlert.newest(incident, status, state, limit);
        Map<Long, List<DeliveryView>> deliveries = new HashMap<>();
        for (ChannelDelivery d : ChannelDelivery.ofAlerts(alerts.stream().map(a -> a.id).toList())) {
            deliveries.computeIfAbsent(d.alertId, k -> new ArrayList<>()).add(new DeliveryView(d.id, d.channel,
                    d.target, d.status, d.attempts, d.nextAttemptAt, d.lastError, d.deliveredAt));
        }
        return alerts.stream().map(a -> new AlertView(a.id, a.incidentId, a.tenant, a.phase, a.idempotencyKey,
                a.createdAt, a.acknowledgedAt, a.acknowledgedBy, a.escalatedAt,
                deliveries.getOrDefault(a.id, List.of()))).toList();
    }


    /**
     * A tenant's incident as its portal lists it: how many of its requests were read by others' and how many of
     * others' its requests read, and how many of its alerts are not acknowledged yet.
     */
    public record TenantIncident(IncidentView incident, long exposedRequests, long receivedRequests,
            int unacknowledged) {
    }

    /** The incidents touching the tenant, newest first. */
    @UnitOfWork
    public List<TenantIncident> tenantIncidents(String tenant) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            List<TenantIncident> out = new ArrayList<>();
            for (UUID id : IncidentQueries.touching(c, tenant, null)) {
                IncidentView i = IncidentQueries.get(c, id).orElseThrow();
                long[] exposure = OutboxStore.exposure(c, id, tenant);
                out.add(new TenantIncident(i, exposure[0], exposure[1], CustomerAlert.unacknowledged(id, tenant)));
            }
            return out;
        }
    }

    /** Sends a DEAD (or HELD, awaiting approval) delivery now; 409 when it is in neither state. */
    public void resend(long deliveryId, String by) throws SQLException {
        if (!retry(deliveryId, by)) {
            throw new ProblemException(409, "delivery " + deliveryId + " is not DEAD or HELD (or does not exist): only "
                    + "those are sent again by hand");
        }
    }

    /**
     * Sends a DEAD (or HELD) delivery again now, from attempt zero; false when there is no such delivery in
     * that state.
     */
    @UnitOfWork
    boolean retry(long deliveryId, String by) throws SQLException {
        Instant now = clock.instant();
        if (!ChannelDelivery.requeue(deliveryId, now)) {
            return false;
        }
        AuditTrail.record(by, "alert.retry", "alert-delivery:" + deliveryId, null,
                "{\"status\":\"PENDING\"}");
        return true;
    }
}
