package app.vigie.notice;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
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
import app.vigie.time.Zones;

/** {@code GET /api/incidents/{id}/documents/incident-report.{html|pdf|json}}: the provider's report for a regulator. */
@Path("/api/incidents/{id}/documents")
public class IncidentDocumentResource {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    NoticeService notices;

    @Inject
    Clock clock;

    @GET
    @Path("{document}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response report(@PathParam("id") String id, @PathParam("document") String document,
            @QueryParam("lang") String langParam, @QueryParam("zone") String zoneParam) throws SQLException {
        String format = document.startsWith(NoticeService.REPORT + ".")
                ? document.substring(NoticeService.REPORT.length() + 1) : "";
        if (!format.equals("html") && !format.equals("pdf") && !format.equals("json")) {
            throw new ProblemException(404, "no document '" + document + "': an incident's own document is "
                    + NoticeService.REPORT + ".html, .pdf or .json; a controller's are under "
                    + "tenants/{tenant}/documents");
        }
        String lang = Reader.language(langParam, "en");
        ZoneId z = Zones.parse(zoneParam);
        UUID uuid = IncidentIds.uuid(id);
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        NoticeService.Rendered r = Transactions.run(dataSource, c -> {
            IncidentView incident = IncidentQueries.get(c, uuid).orElseThrow(() -> IncidentIds.notFound(id));
            IncidentReport report = notices.incidentReport(c, incident, Locale.forLanguageTag(lang), z, now);
            return notices.render(NoticeService.REPORT, lang, (lang.equals("fr") ? "Rapport d'incident – "
                    : "Incident report – ") + incident.deployment(), report, "r");
        });
        return Reader.answer(notices, r, format, NoticeService.REPORT + "-" + uuid.toString().substring(0, 8));
    }
}
