package app.vigie.web.portal;

import java.net.URI;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.jboss.resteasy.reactive.RestForm;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.alert.AlertService;
import app.vigie.compliance.service.ObligationService;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentService;
import app.vigie.notice.CaseFileService;
import app.vigie.notice.DocumentService;
import app.vigie.notice.ProcessorAlert;
import app.vigie.notice.Reader;
import app.vigie.notice.StatementService;
import app.vigie.notice.Statements;
import app.vigie.notice.When;
import app.vigie.web.portal.PortalViews.AlertLine;
import app.vigie.web.portal.PortalViews.Choice;
import app.vigie.web.portal.PortalViews.Home;
import app.vigie.web.portal.PortalViews.IncidentPortal;
import app.vigie.web.portal.PortalViews.Line;
import app.vigie.web.portal.PortalViews.Questionnaire;
import app.vigie.pack.RegulatorPackService;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.security.AccountService;
import app.vigie.security.Role;
import app.vigie.time.Zones;
import app.vigie.web.csrf.DashboardForm;
import app.vigie.web.pages.PageMessages;
import app.vigie.web.pages.PageWords;
import app.vigie.web.pages.Viewer;

/**
 * The customer portal: a customer account sees its own tenant's incidents only, the exposure of its own requests
 * (other customers are never named), its alerts to acknowledge, and its documents. Anything of another tenant, or
 * an incident that does not touch its tenant, answers 404: not even its existence shows.
 */
@Path("/portal")
@Produces(MediaType.TEXT_HTML)
public class PortalPages {
    private static final Set<String> DOCUMENTS = Set.of("processor-alert.pdf", "processor-alert.html",
            "authority-notification.pdf", "authority-notification.html", "data-subject-communication.pdf",
            "data-subject-communication.html");

    @CheckedTemplate(basePath = "pages", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance portal(Home page);

        static native TemplateInstance portalIncident(IncidentPortal page);
    }

    @Inject
    CaseFileService files;

    @Inject
    IncidentService incidents;

    @Inject
    AccountService accounts;

    @Inject
    AlertService alerts;

    @Inject
    Clock clock;

    @Inject
    DocumentService documents;

    @Inject
    StatementService statements;

    @Inject
    RegulatorPackService packs;

    /** The signed-in customer's tenant; 403 for an account bound to none. */
    private String tenant(SecurityContext who) throws SQLException {
        return accounts.current(who.getUserPrincipal().getName()).map(AccountService.Principal::tenant)
                .filter(t -> t != null && !t.isBlank())
                .orElseThrow(() -> new ForbiddenException("this account is bound to no tenant"));
    }

    @GET
    @RolesAllowed(Role.R_CUSTOMER)
    public String home(@QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        String language = viewer.language();
        ZoneId zone = viewer.zone();
        Locale locale = viewer.locale();
        String tenant = tenant(who);
        List<Line> lines = alerts.tenantIncidents(tenant).stream()
                .map(t -> new Line(t.incident().id().toString(), t.incident().deployment(), t.incident().status(),
                        When.of(t.incident().detectedAt(), zone, locale), t.exposedRequests(), t.receivedRequests(),
                        t.unacknowledged()))
                .toList();
        return Templates.portal(new Home(language, zone.getId(), who.getUserPrincipal().getName(), tenant, lines))
                .setLocale(language).render();
    }

    @GET
    @Path("incidents/{id}")
    @RolesAllowed(Role.R_CUSTOMER)
    public String incident(@PathParam("id") String id, @QueryParam("lang") String lang,
            @QueryParam("zone") String zoneParam, @QueryParam("done") String done,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        return render(id, viewer.language(), viewer.zone(), who, done != null, null);
    }

    private String render(String id, String language, ZoneId zone, SecurityContext who, boolean done, String error)
            throws SQLException {
        Locale locale = Locale.forLanguageTag(language);
        String tenant = tenant(who);
        UUID uuid = own(id, tenant);
        Instant now = clock.instant();
        CaseFileService.ControllerFile facts = files.controller(uuid, tenant, now, zone, locale);
        ProcessorAlert alert = facts.alert();
        Statements st = facts.statements();
        ObligationService.SeverityView sev = facts.severity();
        List<AlertLine> mine = alerts.list(uuid, null, 100).stream().filter(a -> a.tenant().equals(tenant))
                .map(a -> new AlertLine(a.id(), a.phase(), When.of(a.createdAt(), zone, locale),
                        a.acknowledgedAt() == null ? null : When.of(a.acknowledgedAt(), zone, locale))).toList();
        List<String> given = st.dataCategories() == null ? List.of() : st.dataCategories();
        PageMessages words = PageWords.of(language);
        PageMessages fr = PageWords.of("fr");
        PageMessages en = PageWords.of("en");
        // a category stored in either language is checked
        List<Choice> categories = PortalViews.CATEGORIES.stream().map(code -> new Choice(code,
                PageWords.category(words, code),
                given.contains(PageWords.category(fr, code)) || given.contains(PageWords.category(en, code))))
                .toList();
        List<String> special = st.specialCategories() == null ? List.of() : st.specialCategories();
        List<Choice> specials = new TreeSet<>(Statements.SPECIAL).stream()
                .map(code -> new Choice(code, PageWords.special(words, code), special.contains(code))).toList();
        boolean answered = sev != null && sev.inputs() != null;
        String personal = !answered ? "" : given.isEmpty() && special.isEmpty() ? "no" : "yes";
        Questionnaire q = new Questionnaire(personal, categories, specials,
                st.approximatePersons() == null ? "" : st.approximatePersons().toString(),
                sev == null || sev.inputs() == null ? "" : sev.inputs().ei(), answered);
        return Templates.portalIncident(new IncidentPortal(language, zone.getId(), who.getUserPrincipal().getName(),
                tenant, id, alert, mine, done, q, sev == null ? null : sev.level(), error)).setLocale(language)
                .render();
    }

    /**
     * The questionnaire: did the requests carry personal data, which categories (Art. 9 included), roughly how many
     * persons, how easily they could be identified. Writes the controller's statements (its CNIL draft reads them)
     * and its ENISA severity inputs (confidentiality: the recipients are known, other customers of the provider;
     * integrity and availability untouched; not malicious), keeping any override of the level it recorded.
     */
    @POST
    @Path("incidents/{id}/questionnaire")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Role.R_CUSTOMER)
    @DashboardForm
    public Response questionnaire(@PathParam("id") String id, @RestForm("personal_data") String personalData,
            @RestForm List<String> categories, @RestForm List<String> special, @RestForm String persons,
            @RestForm String identification, @RestForm String lang, @Context SecurityContext who)
            throws SQLException {
        String language = "fr".equals(lang) ? "fr" : "en";
        ZoneId zone = Zones.parse(null);
        String tenant = tenant(who);
        UUID uuid = own(id, tenant);
        PageMessages words = PageWords.of(language);
        try {
            if (!List.of("yes", "no").contains(personalData == null ? "" : personalData)) {
                throw new ProblemException(400, words.portal_say_personal_data());
            }
            boolean personal = personalData.equals("yes");
            List<String> codes = categories == null ? List.of() : categories;
            List<String> specials = special == null ? List.of() : special;
            Long count = null;
            if (persons != null && !persons.isBlank()) {
                try {
                    count = Long.parseLong(persons.strip().replace(" ", ""));
                } catch (NumberFormatException e) {
                    count = -1L;
                }
                if (count < 0) {
                    throw new ProblemException(400, words.portal_persons_whole_number());
                }
            }
            String ei = personal ? identification : "negligible";
            if (!PortalViews.EASE.contains(ei == null ? "" : ei)) {
                throw new ProblemException(400, words.portal_say_identification_ease());
            }
            List<String> labels = new ArrayList<>();
            for (String code : personal ? codes : List.<String>of()) {
                if (!PortalViews.CATEGORIES.contains(code)) {
                    throw new ProblemException(400, words.portal_unknown_category(code));
                }
                labels.add(PageWords.category(words, code));
            }
            List<String> art9 = personal ? specials : List.of();
            String dpc = !art9.isEmpty() ? "sensitive" : codes.contains("financial") ? "financial"
                    : codes.contains("location") || codes.contains("behaviour") || codes.contains("communications")
                            ? "behavioural" : "simple";
            statements.answer(id, tenant, new StatementService.Questionnaire(labels, art9,
                    personal ? count : Long.valueOf(0), dpc, ei), who.getUserPrincipal().getName());
        } catch (ProblemException e) {
            return Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                    .entity(render(id, language, zone, who, false, e.getMessage())).build();
        }
        return Response.seeOther(URI.create("/portal/incidents/" + uuid + "?lang=" + language
                + "&done=1#questionnaire"))
                .build();
    }

    /** The customer acknowledges one of its alerts (its awareness, which starts its own clock). */
    @POST
    @Path("alerts/{alert}/acknowledgement")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Role.R_CUSTOMER)
    @DashboardForm
    public Response acknowledge(@PathParam("alert") String alertParam, @RestForm String lang,
            @Context SecurityContext who) throws SQLException {
        String tenant = tenant(who);
        long id = Params.number("alert", alertParam, 1, Long.MAX_VALUE);
        AlertService.AlertRef a = alerts.get(id).filter(x -> x.tenant().equals(tenant))
                .orElseThrow(() -> new ProblemException(404, "no alert " + id));
        alerts.acknowledge(a.id(), who.getUserPrincipal().getName(), "portal");
        return Response.seeOther(URI.create("/portal/incidents/" + a.incident() + "?lang="
                + ("fr".equals(lang) ? "fr" : "en") + "&done=1")).build();
    }

    /** The customer's own documents of an incident: the processor alert, its notification draft, its letter. */
    @GET
    @Path("incidents/{id}/documents/{document}")
    @Produces({MediaType.TEXT_HTML, "application/pdf"})
    @RolesAllowed(Role.R_CUSTOMER)
    public Response document(@PathParam("id") String id, @PathParam("document") String document,
            @QueryParam("lang") String lang, @QueryParam("zone") String zone, @Context SecurityContext who)
            throws SQLException {
        String tenant = tenant(who);
        own(id, tenant);
        if (!DOCUMENTS.contains(document)) {
            throw new ProblemException(404, "no document '" + document + "' here");
        }
        return Reader.answer(documents.controllerDocument(id, tenant, document, lang, zone));
    }

    /** The customer's own regulator pack of an incident: its documents, its register's entries, its exposures. */
    @GET
    @Path("incidents/{id}/regulator-pack.zip")
    @Produces("application/zip")
    @RolesAllowed(Role.R_CUSTOMER)
    public Response pack(@PathParam("id") String id, @QueryParam("lang") String lang, @QueryParam("zone") String zone,
            @Context SecurityContext who) throws SQLException {
        String tenant = tenant(who);
        own(id, tenant);
        return RegulatorPackService.answer(packs.controller(id, tenant, lang, zone, who.getUserPrincipal().getName()));
    }

    /** The incident's id when it touches the tenant; 404 otherwise (another tenant's incident does not exist here). */
    private UUID own(String id, String tenant) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        if (!incidents.touches(uuid, tenant)) {
            throw new ProblemException(404, "no incident " + id);
        }
        return uuid;
    }

}
