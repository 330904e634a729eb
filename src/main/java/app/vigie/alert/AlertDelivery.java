package app.vigie.alert;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.mailer.Mail;
import io.quarkus.mailer.Mailer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.vertx.core.Vertx;

import app.vigie.audit.AuditTrail;
import app.vigie.db.ChannelListener;
import app.vigie.db.FailureLog;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.notice.DocumentRenderer;
import app.vigie.notice.NoticeService;
import app.vigie.platform.Traces;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantEntry;
import app.vigie.tenant.TenantValidator;
import app.vigie.time.Zones;

/**
 * Delivers customer alerts: workers claim due deliveries with {@code FOR UPDATE SKIP LOCKED} (several instances share
 * them, none sends one twice at the same time), send outside any transaction (webhook, e-mail, Kafka), record the
 * outcome under the claim; retried with exponential backoff, DEAD after {@code vigie.alerts.max-attempts}. Delivery
 * is at least once, with the same Idempotency-Key and body at every attempt. Alerts not acknowledged in time are
 * escalated to the DPO.
 */
@ApplicationScoped
public class AlertDelivery {
    private static final Logger LOG = Logger.getLogger(AlertDelivery.class);

    /** Spans of deliveries (a no-op tracer while tracing is off). */
    @Inject
    Tracer tracer;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    NoticeService notices;

    @Inject
    DocumentRenderer renderer;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    @Inject
    Mailer mailer;

    @Inject
    KafkaAlerts kafka;

    /** The alert e-mail's text, in each language (its subject a fragment), checked by the build. */
    @Inject
    @Location("mail/processor-alert.en.txt")
    Template mailEn;

    @Inject
    @Location("mail/processor-alert.fr.txt")
    Template mailFr;

    @Inject
    AckLinks ackLinks;

    @Inject
    AlertConfig config;

    /** Where customers reach this service (the acknowledgement links). */
    @ConfigProperty(name = "vigie.public-url", defaultValue = "http://localhost:8080")
    String publicUrl;


    @Inject
    WebhookPolicy webhookPolicy;

    @Inject
    Vertx vertx;

    @Inject
    MeterRegistry meters;

    private Webhook webhook;

    /** The webhook sender (a test alert goes through the same checks and signature). */
    Webhook webhook() {
        return webhook;
    }


    private volatile ScheduledExecutorService worker;

    void start(@Observes StartupEvent event) {
        // at zero from the start, so that a rule on their increase sees the first one
        for (String channel : new String[] {"webhook", "email", "kafka"}) {
            for (String outcome : new String[] {"delivered", "retry", "dead"}) {
                sendTimer(channel, outcome);
            }
        }
        webhook = new Webhook(vertx, webhookPolicy.targets(), config.attemptDeadline());
        slots = new Semaphore(Math.max(1, config.concurrency()));
        AtomicInteger n = new AtomicInteger();
        senders = Executors.newFixedThreadPool(Math.max(1, config.concurrency()), r -> {
            Thread t = new Thread(r, "vigie-alert-sender-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vigie-alert-delivery");
            t.setDaemon(true);
            return t;
        });
        long ms = Math.max(10, config.deliverEvery().toMillis());
        worker.scheduleWithFixedDelay(this::tick, ms, ms, TimeUnit.MILLISECONDS);
        // deliveries another instance (or any writer) commits: V39's trigger notifies at their commit
        written = new ChannelListener(dataSource, WRITTEN, this::kick, LOG, "the sender's poll covers");
        written.start();
    }

    /** The channel V39's trigger notifies on when deliveries are written. */
    static final String WRITTEN = "vigie_alerts";

    private volatile ChannelListener written;

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (written != null) {
            written.stop();
        }
        if (worker != null) {
            worker.shutdownNow();
        }
        if (senders != null) {
            senders.shutdownNow();
        }
        if (webhook != null) {
            webhook.close();
        }
    }

    private final FailureLog roundLog = new FailureLog(LOG, "Alert delivery round");

    void tick() {
        try {
            deliverDue(100);
            escalateUnacknowledged(clock.instant());
            roundLog.succeeded();
        } catch (SQLException | RuntimeException e) {
            roundLog.failed(e);
        } catch (Error e) {
            LOG.error("Alert delivery round failed", e);  // never let the worker thread die silently
        }
    }

    private ExecutorService senders;
    private Semaphore slots;
    /** Deliveries in flight per tenant, on this instance. */
    private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();

    /**
     * Claims up to {@code max} due deliveries (as many as free senders allow, none of a tenant at its limit) and
     * hands each to a sender; returns how many were claimed. Sending happens outside any transaction: a claim moves
     * the delivery's next attempt past the attempt's deadline (another instance leaves it alone meanwhile, and takes
     * it again if this one dies), the sender sends, then records the outcome in its own short transaction.
     */
    public int deliverDue(int max) throws SQLException {
        int claimed = 0;
        while (claimed < max && slots.tryAcquire()) {
            Optional<Due> due = Optional.empty();
            try {
                due = claimNext(clock.instant());
            } finally {
                if (due.isEmpty()) {
                    slots.release();  // nothing claimed (or it failed, even with an Error): the sender is free
                }
            }
            if (due.isEmpty()) {
                break;
            }
            Due d = due.get();
            String lane = lane(d.tenant(), d.channel());
            inFlight.merge(lane, 1, Integer::sum);
            try {
                senders.execute(() -> {
                    try {
                        attempt(d);
                    } catch (SQLException | RuntimeException e) {
                        roundLog.failed(e);  // the claim lapses: the delivery is attempted again after its lease
                    } catch (Error e) {
                        LOG.error("A delivery attempt failed", e);
                    } finally {
                        leave(lane);
                        kick();
                    }
                });
            } catch (RejectedExecutionException stopping) {
                leave(lane);
                break;
            }
            claimed++;
        }
        return claimed;
    }

    /** A claimed delivery is done with (sent, or never handed to a sender): its lane and its sender are free. */
    private void leave(String lane) {
        inFlight.computeIfPresent(lane, (k, v) -> v <= 1 ? null : v - 1);
        slots.release();
    }

    /**
     * Alerts were just committed (told by {@link AlertService} after the transaction that wrote them): look for due
     * deliveries now rather than at the next poll, so that a leak's alert leaves within milliseconds of its commit.
     * Alerts written by another instance wake this one through PostgreSQL's notification (V39, {@value #WRITTEN});
     * the poll stays, for retries and for while the listening connection is down.
     */
    public void wake() {
        kick();
    }

    private final AtomicBoolean wakePending = new AtomicBoolean();

    /**
     * A sender freed, or alerts committed: look for the next due deliveries now rather than at the next round. A burst
     * of them is one look: a look already queued finds what they left.
     */
    private void kick() {
        if (!wakePending.compareAndSet(false, true)) {
            return;
        }
        try {
            if (worker != null && !worker.isShutdown()) {
                worker.execute(() -> {
                    wakePending.set(false);
                    try {
                        deliverDue(100);
                    } catch (SQLException | RuntimeException e) {
                        roundLog.failed(e);
                    }
                });
                return;
            }
        } catch (RejectedExecutionException stopping) {
            // shutting down
        }
        wakePending.set(false);
    }

    /**
     * A delivery due now, claimed: its alert, channel, target and attempts so far; {@code traceParent}: the trace of
     * the intake that planned its alert (null: none).
     */
    record Due(long id, long alertId, String channel, String target, int attempts, UUID incident, String tenant,
            String phase, String key, String body, List<String> secrets, UUID claim, String traceParent) {
    }

    /** In flight per tenant and channel: a dead webhook does not hold the same tenant's e-mail. */
    private static String lane(String tenant, String channel) {
        return tenant + "|" + channel;
    }

    /** The next delivery due, outside the busy lanes. */
    @UnitOfWork
    Optional<Long> nextDue(Instant now, String[] busy) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            return DeliveryStore.nextDue(c, now, busy);
        }
    }

    private Optional<Due> claimNext(Instant now) throws SQLException {
        String[] busy = inFlight.entrySet().stream().filter(e -> e.getValue() >= Math.max(1, config.perTenant()))
                .map(Map.Entry::getKey).toArray(String[]::new);
        Optional<Long> next = nextDue(now, busy);
        if (next.isEmpty()) {
            return Optional.empty();
        }
        try {
            fixBody(next.get(), now);
        } catch (RuntimeException e) {
            // this alert's body cannot be made (a rendering error): it waits its backoff; the others go on
            postpone(next.get(), "the alert could not be prepared: " + e, now);
            LOG.errorf(e, "Alert %d could not be prepared; its deliveries wait their backoff", next.get());
            return Optional.empty();
        }
        return claim(now, busy);
    }

    /** Claims the next delivery due, held by this sender for its lease. */
    @UnitOfWork
    Optional<Due> claim(Instant now, String[] busy) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            Optional<Due> due = DeliveryStore.claim(c, now, busy);
            if (due.isEmpty() || due.get().body() == null) {
                return Optional.empty();  // taken by another worker, or its body is being fixed: still due
            }
            Due d = due.get();
            UUID claim = UUID.randomUUID();
            // the lease runs from the claim, past the whole attempt (and e-mail's and Kafka's own waits)
            DeliveryStore.hold(c, d.id(), claim, clock.instant().plus(lease()));
            List<String> secrets = d.channel().equals("webhook")
                    ? WebhookSecret.signingSecrets(d.tenant(), now) : null;
            return Optional.of(new Due(d.id(), d.alertId(), d.channel(), d.target(), d.attempts(), d.incident(),
                    d.tenant(), d.phase(), d.key(), d.body(), secrets, claim, d.traceParent()));
        }
    }

    /**
     * How long a claim holds a delivery: twice the attempt's deadline and 20 s (40 s by default; Kafka's own waits
     * end within 30 s). Long enough that no live sender loses its claim; short enough that a delivery whose sender
     * died is attempted again within a minute. An outcome recorded after the claim lapsed is not recorded (the
     * claim is the sender's own), so a lapse costs at most one more send, never a lost or contradicted outcome.
     */
    Duration lease() {
        return config.attemptDeadline().multipliedBy(2).plusSeconds(20);
    }

    /** An alert whose body cannot be made: its pending deliveries wait a backoff, the error kept for the DPO. */
    @UnitOfWork
    void postpone(long alertId, String error, Instant now) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            DeliveryStore.postpone(c, alertId, Webhook.sanitize(error), now.plus(config.retryMax()));
        }
    }

    /**
     * Sends a claimed delivery, then records what came of it; one span {@code vigie.alert.deliver}, a child of the
     * intake's that planned the alert (its trace continues to the customer: the webhook carries its
     * {@code traceparent}).
     */
    private void attempt(Due d) throws SQLException {
        Span span = tracer.spanBuilder("vigie.alert.deliver").setParent(Traces.parent(d.traceParent()))
                .setSpanKind(SpanKind.PRODUCER).setAttribute("vigie.incident", d.incident().toString())
                .setAttribute("vigie.alert.id", d.alertId()).setAttribute("vigie.alert.phase", d.phase())
                .setAttribute("vigie.alert.channel", d.channel()).setAttribute("vigie.alert.attempt", d.attempts() + 1)
                .startSpan();
        try (Scope scope = span.makeCurrent()) {
            String error = attempt(d, span);
            if (error != null) {
                span.setStatus(StatusCode.ERROR, error);
            }
        } finally {
            span.end();
        }
    }

    private String attempt(Due d, Span span) throws SQLException {
        long started = System.nanoTime();
        String error = send(d, clock.instant());
        if (Thread.currentThread().isInterrupted() || "interrupted".equals(error)) {
            span.setAttribute("vigie.alert.outcome", "interrupted");
            return null;  // stopping: no outcome is known; the claim lapses and the delivery is attempted again
        }
        String outcome = error == null ? "delivered" : d.attempts() + 1 >= config.maxAttempts() ? "dead" : "retry";
        span.setAttribute("vigie.alert.outcome", outcome);
        long took = System.nanoTime() - started;
        boolean recorded = recordOutcome(d, error);
        // counted only when recorded: an outcome after the claim lapsed is not this delivery's
        if (recorded) {
            sendTimer(d.channel(), outcome).record(took, TimeUnit.NANOSECONDS);
        }
        return error;
    }

    /** An attempt's outcome, recorded while this sender's claim holds; whether it did. */
    @UnitOfWork
    boolean recordOutcome(Due d, String error) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            if (error == null) {
                // delivered: the controller is aware from now (EDPB Guidelines 9/2022 v2.0, section II.A.4)
                Instant delivered = clock.instant();
                if (!DeliveryStore.record(c, d, "DELIVERED", d.attempts() + 1, delivered, null, delivered)) {
                    return false;
                }
                AuditTrail.record("vigie", "alert.delivered", "incident:" + d.incident() + "/" + d.tenant(),
                        null, "{\"alert\":" + d.alertId() + ",\"delivery\":" + d.id() + ",\"channel\":"
                                + AuditTrail.quote(d.channel()) + ",\"attempt\":" + (d.attempts() + 1) + "}");
            } else {
                Instant now = clock.instant();
                int attempts = d.attempts() + 1;
                boolean dead = attempts >= config.maxAttempts();
                Instant next = dead ? now : now.plus(backoff(attempts));
                if (!DeliveryStore.record(c, d, dead ? "DEAD" : "PENDING", attempts, next, error, null)) {
                    return false;
                }
                if (dead) {
                    AuditTrail.record("vigie", "alert.dead", "incident:" + d.incident() + "/" + d.tenant(), null,
                            "{\"alert\":" + d.alertId() + ",\"delivery\":" + d.id() + ",\"error\":"
                                    + AuditTrail.quote(error) + "}");
                }
            }
            return true;
        }
    }

    /** {@code vigie_alert_send_seconds{channel, outcome}}: one attempt, by what came of it. */
    private Timer sendTimer(String channel, String outcome) {
        return Timer.builder("vigie.alert.send").tag("channel", channel).tag("outcome", outcome)
                .description("One attempt to deliver a customer alert on one channel, by what came of it")
                .publishPercentileHistogram().register(meters);
    }

    /** base x 2^(attempts-1), at most {@code retry-max}. */
    Duration backoff(int attempts) {
        Duration d = config.retryBase().multipliedBy(1L << Math.min(20, attempts - 1));
        return d.compareTo(config.retryMax()) > 0 ? config.retryMax() : d;
    }

    /** The alert's body, rendered once and kept: every attempt sends the same bytes. */
    @UnitOfWork
    void fixBody(long alertId, Instant now) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            Optional<DeliveryStore.Unfixed> unfixed = DeliveryStore.unfixed(c, alertId);
            if (unfixed.isEmpty()) {
                return;
            }
            DeliveryStore.Unfixed u = unfixed.get();
            IncidentView view = IncidentQueries.get(c, u.incident()).orElseThrow();
            Map<String, Object> alert = new LinkedHashMap<>();
            alert.put("id", alertId);
            alert.put("phase", u.phase());
            alert.put("idempotency_key", u.key());
            alert.put("incident_id", u.incident().toString());
            alert.put("tenant", u.tenant());
            alert.put("created_at", u.createdAt().toString());
            String base = publicUrl.replaceAll("/+$", "");
            // the link's token is put in at each send (derived, the same every time), never stored
            alert.put("acknowledge_url", base + "/ack/" + AckLinks.ACK_TOKEN_SLOT);
            alert.put("acknowledge_before", u.createdAt().plus(ackLinks.validFor()).toString());
            // the same notice as a PDF/A document, for the customer's signed-in portal account
            alert.put("pdf_url", base + "/portal/incidents/" + u.incident() + "/documents/processor-alert.pdf");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("alert", alert);
            body.put("notice", notices.processorAlert(c, view, u.tenant(), Locale.ENGLISH, ZoneOffset.UTC, now));
            // a French-speaking controller's e-mail is in French, its PDF from this French notice (Paris time); kept
            // last, for the e-mail only: webhooks and Kafka get the body without it (withoutFrench)
            if ("fr".equals(TenantEntry.byId(u.tenant()).map(t -> Tenant.language(t.country())).orElse("en"))) {
                body.put("notice_fr", notices.processorAlert(c, view, u.tenant(), Locale.FRENCH,
                        ZoneId.of(Zones.DEFAULT), now));
            }
            try {
                DeliveryStore.setBody(c, alertId, json.writeValueAsString(body));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private String send(Due d, Instant now) {
        String sent = ackLinks.withToken(d.body(), d.key());
        byte[] body = sent.getBytes(StandardCharsets.UTF_8);
        return switch (d.channel()) {
            case "webhook" -> webhook.send(d.target(), d.secrets(), d.key(), d.phase(), withoutFrench(body), now);
            case "email" -> email(d, sent);
            case "kafka" -> kafka.send(d.tenant(), d.key(), d.phase(), withoutFrench(body));
            default -> "channel '" + d.channel() + "' is not delivered yet";
        };
    }

    /**
     * The body as webhooks and Kafka get it: without the French notice kept for the e-mail ({@code notice_fr}, the
     * body's last member when there). The key cannot occur elsewhere: inside a JSON string a quote is escaped.
     */
    static byte[] withoutFrench(byte[] body) {
        String s = new String(body, StandardCharsets.UTF_8);
        int at = s.lastIndexOf(",\"notice_fr\":");
        return at < 0 ? body : (s.substring(0, at) + "}").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The alert by email: a short text with the acknowledgement link, the notice attached as PDF/A (rendered from the
     * JSON sent, so retries attach the same facts) and as JSON; the Idempotency-Key as a header and in the
     * Message-ID's left part, so that a repeated delivery is recognisable. {@code sent}: the body with its link's token.
     */
    private String email(Due d, String sent) {
        try {
            JsonNode body = json.readTree(sent);
            JsonNode alert = body.path("alert");
            boolean french = body.has("notice_fr");
            String noticeJson = json.writeValueAsString(body.path(french ? "notice_fr" : "notice"));
            DocumentRenderer.Rendered r = renderer.renderProcessorAlert(noticeJson);
            byte[] pdf = renderer.pdf(r, "processor-alert.json");
            Template template = french ? mailFr : mailEn;
            AlertMail mail = new AlertMail(r.title(), alert.path("incident_id").asText(), d.phase(),
                    alert.path("acknowledge_url").asText(), d.key());
            String subject = template.getFragment("subject").data("mail", mail).render().strip();
            String text = template.data("mail", mail).render().strip() + "\n";
            if (!TenantValidator.isEmail(d.target())) {
                return "SMTP: not sent: the target is not an e-mail address";
            }
            // no line break reaches a header, whatever a name in the title holds
            subject = subject.replaceAll("\\p{Cntrl}+", " ");
            mailer.send(Mail.withText(d.target(), subject, text)
                    .addHeader("Idempotency-Key", d.key())
                    .addHeader("Content-Language", french ? "fr" : "en")
                    .addAttachment("processor-alert.pdf", pdf, "application/pdf")
                    .addAttachment("processor-alert.json", noticeJson.getBytes(StandardCharsets.UTF_8),
                            "application/json"));
            return null;
        } catch (RuntimeException | JsonProcessingException e) {
            return "SMTP: " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** Alerts not acknowledged in time are escalated to the DPO (once each; an audit event says so). */
    @UnitOfWork
    int escalateUnacknowledged(Instant now) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            int n = 0;
            for (DeliveryStore.Escalated e : DeliveryStore.escalate(c, now, now.minus(config.ackEscalateAfter()))) {
                AuditTrail.record("vigie", "alert.unacknowledged", "incident:" + e.incident() + "/" + e.tenant(), null,
                        "{\"alert\":" + e.alertId() + ",\"after\":\"" + config.ackEscalateAfter() + "\"}");
                n++;
            }
            return n;
        }
    }
}
