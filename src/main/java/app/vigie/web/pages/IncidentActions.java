package app.vigie.web.pages;

import java.net.URI;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.jboss.resteasy.reactive.RestForm;

import app.vigie.alert.AlertService;
import app.vigie.compliance.service.CaseService;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentService;
import app.vigie.incident.IncidentStatus;
import app.vigie.incident.IncidentView;
import app.vigie.incident.MeasureService;
import app.vigie.notice.Reader;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantService;
import app.vigie.time.Zones;
import app.vigie.web.LocalTimes;
import app.vigie.web.csrf.DashboardForm;

/**
 * The incident page's forms: status with a reason, a measure, an obligation done with the authority's receipt
 * number, a decision, a missing customer added to the directory, a delivery sent again. They post here with their
 * CSRF token and go through the same services as the API; a refused action shows the page again with the reason and
 * the values typed, answered with the API's status.
 */
@Path("/incidents/{id}")
@Produces(MediaType.TEXT_HTML)
public class IncidentActions {

    @Inject
    IncidentPageAssembler assembler;

    @Inject
    IncidentService incidents;

    @Inject
    AlertService alerts;

    @Inject
    MeasureService measures;

    @Inject
    CaseService cases;

    @Inject
    TenantService tenantsDirectory;

    /** Triage, confirm, dismiss (with a reason) or close (with a reason). */
    @POST
    @Path("status")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    @DashboardForm
    public Response status(@PathParam("id") String id, @RestForm String status, @RestForm String reason,
            @RestForm String lang, @RestForm String zone, @Context SecurityContext who) throws SQLException {
        IncidentForm form = new IncidentForm("status", List.of("status", Pages.nz(status), "reason", Pages.nz(reason)));
        return act(id, lang, zone, who, form, z -> {
            incidents.changeStatus(IncidentIds.uuid(id), IncidentStatus.parse(status), reason, Pages.user(who));
            return null;
        });
    }

    /** A measure taken (its time in the user's zone, or with an offset). */
    @POST
    @Path("measures")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    @DashboardForm
    public Response measure(@PathParam("id") String id, @RestForm("taken_at") String takenAt, @RestForm String text,
            @RestForm String lang, @RestForm String zone, @Context SecurityContext who) throws SQLException {
        IncidentForm form = new IncidentForm("measure", List.of("taken_at", Pages.nz(takenAt), "text", Pages.nz(text)));
        return act(id, lang, zone, who, form, z -> {
            Instant at = LocalTimes.parse(takenAt, z, "taken at");
            return measures.add(id, at == null ? null : at.toString(), text, Pages.user(who));
        });
    }

    /**
     * An obligation done: when, and its evidence (the authority's receipt number, the message sent); for a
     * notification past its deadline, the reasons for the delay. {@code tenant} empty: the provider's own duty.
     */
    @POST
    @Path("completions")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    @DashboardForm
    public Response completion(@PathParam("id") String id, @RestForm String duty, @RestForm("done_at") String doneAt,
            @RestForm String evidence, @RestForm("late_reasons") String lateReasons, @RestForm String lang,
            @RestForm String zone, @Context SecurityContext who) throws SQLException {
        IncidentForm form = new IncidentForm("completion", List.of("duty", Pages.nz(duty), "done_at", Pages.nz(doneAt), "evidence", Pages.nz(evidence),
                "late_reasons", Pages.nz(lateReasons)));
        return act(id, lang, zone, who, form, z -> {
            String[] key = duty == null ? new String[0] : duty.split("\\|", -1);
            if (key.length != 3) {
                throw new ProblemException(400, "choose the obligation that was done");
            }
            Instant at = withinDetectionMinute(id, LocalTimes.parse(doneAt, z, "done at"));
            var body = new CaseService.CompletionBody(at == null ? null : at.toString(), evidence, null,
                    lateReasons == null || lateReasons.isBlank() ? null : lateReasons);
            return cases.complete(id, key[0].isEmpty() ? null : key[0], key[1], key[2], body, Pages.user(who));
        });
    }

    /**
     * A decision of a party's case (whether the incident is significant, unlikely to result in a risk...): yes or
     * no, with its justification; {@code decision} is tenant|name (tenant empty: the provider's).
     */
    @POST
    @Path("decisions")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    @DashboardForm
    public Response decision(@PathParam("id") String id, @RestForm String decision, @RestForm String value,
            @RestForm String justification, @RestForm String lang, @RestForm String zone,
            @Context SecurityContext who) throws SQLException {
        IncidentForm form = new IncidentForm("decision", List.of("decision", Pages.nz(decision), "value", Pages.nz(value), "justification",
                Pages.nz(justification)));
        CockpitMessages ck = PageWords.cockpit(Reader.language(lang, "en"));
        return act(id, lang, zone, who, form, z -> {
            // tenant|decision: a tenant name may hold a bar, a decision's name does not
            int bar = decision == null ? -1 : decision.lastIndexOf('|');
            if (bar < 0 || bar == decision.length() - 1) {
                throw new ProblemException(400, ck.act_choose_decision());
            }
            String[] key = {decision.substring(0, bar), decision.substring(bar + 1)};
            if (!"yes".equals(value) && !"no".equals(value)) {
                throw new ProblemException(400, ck.act_answer_yes_no());
            }
            return cases.decide(id, key[0].isEmpty() ? null : key[0], key[1],
                    new CaseService.DecisionBody("yes".equals(value), null, justification), Pages.user(who));
        });
    }

    /**
     * An affected customer missing from the tenant directory, added from the incident page: its controller's legal
     * name, country and alert address (the directory's other fields are edited on its page or through the API).
     */
    @POST
    @Path("directory")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response directory(@PathParam("id") String id, @RestForm String tenant,
            @RestForm("legal_name") String legalName, @RestForm String country, @RestForm String email,
            @RestForm String lang, @RestForm String zone, @Context SecurityContext who) throws SQLException {
        IncidentForm form = new IncidentForm("mapped", List.of("tenant", Pages.nz(tenant), "legal_name", Pages.nz(legalName), "country",
                Pages.nz(country), "email", Pages.nz(email)));
        return act(id, lang, zone, who, form, z -> {
            if (tenant == null || tenant.isEmpty() || !incidents.touches(IncidentIds.uuid(id), tenant)) {
                throw new ProblemException(404, "incident " + id + " does not affect tenant " + tenant);
            }
            if (tenantsDirectory.find(tenant).isPresent()) {
                throw new ProblemException(409, "tenant " + tenant + " is in the directory already: change it on "
                        + "the tenants page");
            }
            List<Tenant.AlertChannel> channels = email == null || email.isBlank() ? List.of()
                    : List.of(new Tenant.AlertChannel("email", email.strip()));
            return tenantsDirectory.put(Pages.user(who), tenant, new Tenant(tenant, blankToNull(legalName),
                    blankToNull(country), null, null, channels, null, null, null, null, null, null));
        });
    }

    /** A customer's DEAD delivery sent again, or its HELD one released, from the customers' table. */
    @POST
    @Path("deliveries/{delivery}/retry")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response retry(@PathParam("id") String id, @PathParam("delivery") String delivery, @RestForm String lang,
            @RestForm String zone, @Context SecurityContext who) throws SQLException {
        IncidentForm form = new IncidentForm("resent", List.of());
        return act(id, lang, zone, who, form, z -> {
            long d = Params.number("delivery", delivery, 1, Long.MAX_VALUE);
            if (alerts.list(IncidentIds.uuid(id), null, Integer.MAX_VALUE).stream()
                    .noneMatch(a -> a.deliveries().stream().anyMatch(x -> x.id() == d))) {
                throw new ProblemException(404, "no delivery " + d + " of incident " + id);
            }
            alerts.resend(d, Pages.user(who));
            return null;
        });
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    @FunctionalInterface
    interface Action {
        Object run(ZoneId zone) throws SQLException;
    }

    /** Runs an action; on success back to the page (303, so a reload does not post again), else the page saying why. */
    private Response act(String id, String lang, String zoneParam, SecurityContext who, IncidentForm form, Action action)
            throws SQLException {
        String language = Reader.language(lang, "en");
        ZoneId zone = Zones.parse(zoneParam);
        IncidentIds.uuid(id);
        try {
            action.run(zone);
        } catch (ProblemException e) {
            return Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                    .entity(assembler.render(id, language, zone, who, new IncidentPage.Notice(true, form.name(), e.getMessage()),
                            form, 1))
                    .build();
        }
        return Response.seeOther(URI.create("/incidents/" + id + "?lang=" + language + "&zone=" + zone.getId()
                + "&done=" + form.name() + "#" + switch (form.name()) {
                    case "mapped", "resent" -> "customers";
                    default -> form.name();
                })).build();
    }

    /**
     * A form gives minutes: a time in the very minute the incident was detected, but before its second, means
     * "then" and is read as the detection time (the API refuses a completion before detection).
     */
    private Instant withinDetectionMinute(String id, Instant at) throws SQLException {
        if (at == null) {
            return null;
        }
        UUID uuid = IncidentIds.uuid(id);
        Instant detected = incidents.find(uuid).map(IncidentView::detectedAt).orElse(null);
        return detected != null && at.isBefore(detected)
                && !at.isBefore(detected.truncatedTo(ChronoUnit.MINUTES)) ? detected : at;
    }
}
