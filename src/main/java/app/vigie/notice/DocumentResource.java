package app.vigie.notice;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import io.agroal.api.AgroalDataSource;

import app.vigie.db.Transactions;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.tenant.TenantStore;

/**
 * {@code GET /api/incidents/{id}/tenants/{tenant}/documents/{kind}.{html|pdf|json}}: an incident's documents for one
 * controller, previewed (HTML), downloaded (PDF/A-3u with its JSON inside) or as data (JSON), in French or English
 * ({@code lang}), with times in the reader's zone ({@code zone}, Europe/Paris by default).
 */
@Path("/api/incidents/{id}/tenants/{tenant}/documents")
public class DocumentResource {
    private static final Set<String> KINDS = Set.of("processor-alert");
    private static final Set<String> FRENCH_SPEAKING = Set.of("FR", "BE", "LU", "MC", "CH");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    NoticeService notices;

    @Inject
    Clock clock;

    @GET
    @Path("{document}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response document(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("document") String document, @QueryParam("lang") String langParam,
            @QueryParam("zone") String zoneParam) throws SQLException {
        int dot = document.lastIndexOf('.');
        String kind = dot < 0 ? document : document.substring(0, dot);
        String format = dot < 0 ? "" : document.substring(dot + 1);
        if (!KINDS.contains(kind) || !Set.of("html", "pdf", "json").contains(format)) {
            throw new ProblemException(404, "no document '" + document + "': documents are " + KINDS
                    + ", each as .html, .pdf or .json");
        }
        ZoneId zone = zone(zoneParam);
        UUID uuid = IncidentIds.uuid(id);
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        NoticeService.Rendered r = Transactions.run(dataSource, c -> {
            IncidentView incident = IncidentQueries.get(c, uuid).orElseThrow(() -> IncidentIds.notFound(id));
            if (!incident.victimTenants().contains(tenant) && !incident.recipientTenants().contains(tenant)) {
                throw new ProblemException(404, "tenant '" + tenant + "' has no exposure in incident " + id);
            }
            String lang = langParam != null ? language(langParam) : TenantStore.find(c, tenant)
                    .map(t -> FRENCH_SPEAKING.contains(t.country()) ? "fr" : "en").orElse("en");
            ProcessorAlert alert = notices.processorAlert(c, incident, tenant, Locale.forLanguageTag(lang), zone,
                    now);
            String name = alert.controller().legalName() != null ? alert.controller().legalName() : tenant;
            String title = (lang.equals("fr") ? "Alerte du sous-traitant – violation de données – "
                    : "Processor alert – personal data breach – ") + name;
            return notices.render(kind, lang, title, alert, "alert");
        });
        String file = kind + "-" + uuid.toString().substring(0, 8) + "-" + tenant;
        return switch (format) {
            case "html" -> Response.ok(r.html(), "text/html; charset=UTF-8").build();
            case "json" -> Response.ok(new String(r.json(), StandardCharsets.UTF_8), "application/json").build();
            default -> Response.ok(notices.pdf(r, file + ".json"), "application/pdf")
                    .header("Content-Disposition", "attachment; filename=\"" + safe(file) + ".pdf\"").build();
        };
    }

    private static String language(String lang) {
        String l = lang.strip().toLowerCase(Locale.ROOT);
        if (!l.equals("fr") && !l.equals("en")) {
            throw new ProblemException(400, "query parameter 'lang' must be fr or en, got '" + lang + "'");
        }
        return l;
    }

    private static ZoneId zone(String zone) {
        if (zone == null || zone.isBlank()) {
            return ZoneId.of("Europe/Paris");
        }
        try {
            return ZoneId.of(zone.strip());
        } catch (DateTimeException e) {
            throw new ProblemException(400, "query parameter 'zone' must be a time zone such as Europe/Paris, got '"
                    + zone + "'");
        }
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
