package app.vigie.web.pages;

import java.sql.SQLException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.export.Csv;
import app.vigie.incident.IncidentExports;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentService;
import app.vigie.notice.DocumentService;
import app.vigie.notice.Reader;
import app.vigie.pack.RegulatorPackService;
import app.vigie.problem.Params;
import app.vigie.security.Role;
import app.vigie.time.Zones;

/**
 * An incident's page (facts, timeline, the exposure matrix, every party's obligations, findings, measures; its view
 * model assembled by {@link IncidentPageAssembler}) and what it links to for the signed-in dashboard: the findings'
 * exports, the documents, the regulator packs. Its forms post to {@link IncidentActions}.
 */
@Path("/incidents/{id}")
@Produces(MediaType.TEXT_HTML)
public class IncidentPages {

    @Inject
    IncidentPageAssembler assembler;

    @Inject
    DocumentService documents;

    @Inject
    IncidentService incidents;

    @Inject
    RegulatorPackService packs;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String incident(@PathParam("id") String id, @QueryParam("lang") String lang,
            @QueryParam("zone") String zone, @QueryParam("done") String done, @QueryParam("duty") String duty,
            @QueryParam("findings") String findingsPage,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Reader.language(lang, "en");
        // "record as done" from the list of what to do next: the form's obligation chosen already
        IncidentForm chosen = duty != null && !duty.isBlank() ? new IncidentForm("done", List.of("duty", duty)) : null;
        return assembler.render(id, Viewer.language(lang, accept), Zones.parse(zone), who,
                done == null ? null : new IncidentPage.Notice(false, done, null), chosen,
                findingsPage == null || findingsPage.isBlank() ? 1
                        : (int) Params.number("findings", findingsPage, 1, Integer.MAX_VALUE));
    }

    /** Every finding of the incident with its evidence, as CSV (the evidence section's download). */
    @GET
    @Path("findings.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response findingsCsv(@PathParam("id") String id) throws SQLException {
        return Csv.attachment(new Csv.Export("findings-" + IncidentIds.shortId(IncidentIds.uuid(id)) + ".csv",
                IncidentExports.findingsCsv(incidents.findings(id))));
    }

    /** Every finding of the incident with its evidence, as JSON (the API's, for the signed-in dashboard). */
    @GET
    @Path("findings.json")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response findingsJson(@PathParam("id") String id) throws SQLException {
        return Response.ok(incidents.findings(id), MediaType.APPLICATION_JSON_TYPE).header("Content-Disposition",
                "attachment; filename=\"findings-" + IncidentIds.shortId(IncidentIds.uuid(id)) + ".json\"")
                .build();
    }

    /**
     * A controller's document for the signed-in dashboard (the same as the API's, which takes HTTP Basic): a link
     * on the incident page opens or downloads it with the session.
     */
    @GET
    @Path("tenants/{tenant}/documents/{document}")
    @Produces({MediaType.TEXT_HTML, "application/pdf", MediaType.APPLICATION_JSON})
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response document(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("document") String document, @QueryParam("lang") String lang,
            @QueryParam("zone") String zone) throws SQLException {
        return Reader.answer(documents.controllerDocument(id, tenant, document, lang, zone));
    }

    /** The provider's incident report for a regulator (HTML, PDF, JSON), for the signed-in dashboard. */
    @GET
    @Path("documents/{document}")
    @Produces({MediaType.TEXT_HTML, "application/pdf", MediaType.APPLICATION_JSON})
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response report(@PathParam("id") String id, @PathParam("document") String document,
            @QueryParam("lang") String lang, @QueryParam("zone") String zone) throws SQLException {
        return Reader.answer(documents.incidentReport(id, document, lang, zone));
    }

    /** The regulator pack of the whole incident (a ZIP with its manifest), for the signed-in dashboard. */
    @GET
    @Path("regulator-pack.zip")
    @Produces("application/zip")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response pack(@PathParam("id") String id, @QueryParam("lang") String lang, @QueryParam("zone") String zone,
            @Context SecurityContext who) throws SQLException {
        return RegulatorPackService.answer(packs.incident(id, lang, zone, Pages.user(who)));
    }

    /** One controller's regulator pack, for the signed-in dashboard. */
    @GET
    @Path("tenants/{tenant}/regulator-pack.zip")
    @Produces("application/zip")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response controllerPack(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @QueryParam("lang") String lang, @QueryParam("zone") String zone, @Context SecurityContext who)
            throws SQLException {
        return RegulatorPackService.answer(packs.controller(id, tenant, lang, zone, Pages.user(who)));
    }
}
