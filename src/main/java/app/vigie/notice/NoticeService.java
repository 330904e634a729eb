package app.vigie.notice;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.qute.Engine;
import io.quarkus.qute.Template;

import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.service.ObligationService;
import app.vigie.incident.ExposureView;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.incident.Measures;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantStore;

/** The documents of an incident: their data (JSON), their page (HTML from templates/) and their PDF/A-3u. */
@ApplicationScoped
public class NoticeService {

    @Inject
    Engine engine;

    @Inject
    ObligationService obligations;

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "vigie.provider.legal-name")
    String providerName;

    @ConfigProperty(name = "vigie.provider.contact")
    String providerContact;

    /** A document rendered three ways. */
    public record Rendered(String title, String lang, String html, byte[] json) {
    }

    public ProcessorAlert processorAlert(Connection c, IncidentView incident, String tenant, Locale lang, ZoneId zone,
            Instant now) throws SQLException {
        Tenant entry = TenantStore.find(c, tenant).orElse(null);
        List<ExposureView> exposures = IncidentQueries.exposures(c, incident.id());
        ObligationService.Plan plan = obligations.plan(c, incident.id(), now, false).orElseThrow();

        Map<String, Line> exposed = new LinkedHashMap<>();
        Map<String, Line> received = new LinkedHashMap<>();
        for (ExposureView e : exposures) {
            boolean delivered = Boolean.TRUE.equals(e.delivered());
            if (e.victimTenant().equals(tenant)) {
                exposed.computeIfAbsent(e.victimRequest() + "|" + e.kind(), k -> new Line(e.victimRequest(),
                        "INTRA_TENANT".equals(e.kind()))).add(e.tokens(), e.firstSeenAt(), e.readerRequest(),
                                delivered);
            }
            if (e.readerTenant().equals(tenant) && "CROSS_TENANT".equals(e.kind())) {
                received.computeIfAbsent(e.readerRequest(), k -> new Line(e.readerRequest(), false))
                        .add(e.tokens(), e.firstSeenAt(), e.victimRequest(), delivered);
            }
        }
        List<ProcessorAlert.RequestLine> exposedLines = exposed.values().stream().map(l -> l.line(zone, lang))
                .toList();
        List<ProcessorAlert.RequestLine> receivedLines = received.values().stream().map(l -> l.line(zone, lang))
                .toList();
        ProcessorAlert.Totals totals = new ProcessorAlert.Totals(exposedLines.size(),
                exposedLines.stream().mapToLong(ProcessorAlert.RequestLine::tokens).sum(), receivedLines.size(),
                receivedLines.stream().mapToLong(ProcessorAlert.RequestLine::tokens).sum(),
                receivedLines.stream().filter(l -> l.delivered() > 0).count());

        List<ProcessorAlert.Duty> duties = new ArrayList<>();
        for (Obligation o : plan.of(tenant)) {
            if (o.holder() == ObligationRule.Party.CONTROLLER && o.kind() != ObligationRule.Kind.NONE) {
                duties.add(new ProcessorAlert.Duty(o.rule(), o.kind().name(), o.recipient(),
                        o.recipientName() != null ? o.recipientName() : o.recipient(), o.status().name(),
                        When.of(o.dueAt(), zone, lang), o.dueBasis() == null ? null : o.dueBasis().name(),
                        o.condition().name(), o.source()));
            }
        }
        List<ProcessorAlert.Measure> measures = Measures.of(c, incident.id()).stream()
                .map(m -> new ProcessorAlert.Measure(When.of(m.takenAt(), zone, lang), m.text())).toList();
        boolean ongoing = !"CLOSED".equals(incident.status());
        return new ProcessorAlert(lang.getLanguage(), zone.getId(), When.of(now, zone, lang),
                new ProcessorAlert.Incident(incident.id(), incident.deployment(), incident.status(),
                        When.of(incident.detectedAt(), zone, lang), When.of(incident.firstExposureAt(), zone, lang),
                        When.of(incident.lastExposureAt(), zone, lang), ongoing, incident.leakedResponses() > 0),
                new ProcessorAlert.Party(providerName, providerContact),
                entry == null ? new ProcessorAlert.Controller(tenant, null, null, null, null, null, false)
                        : new ProcessorAlert.Controller(tenant, entry.legalName(), entry.companyId(),
                                entry.dpo() == null ? null : entry.dpo().name(),
                                entry.dpo() == null ? null : entry.dpo().email(),
                                entry.dpo() == null ? null : entry.dpo().phone(), true),
                exposedLines, receivedLines, totals, measures, duties, obligations.rulesVersion());
    }

    /** Renders a document's data with its template {@code notices/<kind>.<lang>.html}. */
    public Rendered render(String kind, String lang, String title, Object data, String param) {
        Template t = engine.getTemplate("notices/" + kind + "." + lang + ".html");
        if (t == null) {
            throw new IllegalStateException("no template notices/" + kind + "." + lang + ".html");
        }
        try {
            return new Rendered(title, lang, t.data(param, data).render(), json.writeValueAsBytes(data));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public byte[] pdf(Rendered r, String jsonName) {
        return PdfRenderer.render(r.html(), r.title(), r.lang(), r.json(), jsonName);
    }

    /** One request's line while it is summed. */
    private static final class Line {
        final String request;
        final boolean sameTenant;
        long tokens;
        Instant first;
        final Set<String> others = new HashSet<>();
        final Set<String> deliveredReaders = new HashSet<>();

        Line(String request, boolean sameTenant) {
            this.request = request;
            this.sameTenant = sameTenant;
        }

        Line add(long t, Instant seen, String other, boolean delivered) {
            tokens += t;
            first = first == null || seen.isBefore(first) ? seen : first;
            others.add(other);
            if (delivered) {
                deliveredReaders.add(other);
            }
            return this;
        }

        ProcessorAlert.RequestLine line(ZoneId zone, Locale lang) {
            return new ProcessorAlert.RequestLine(request, tokens, When.of(first, zone, lang), others.size(),
                    deliveredReaders.size(), sameTenant);
        }
    }
}
