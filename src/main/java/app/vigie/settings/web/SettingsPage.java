package app.vigie.settings.web;

import java.net.URI;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.jboss.resteasy.reactive.RestForm;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.qute.i18n.Localized;
import io.quarkus.qute.i18n.MessageBundles;

import app.vigie.notice.When;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.settings.ProviderIdentity;
import app.vigie.settings.SettingsService;
import app.vigie.web.csrf.DashboardForm;
import app.vigie.web.pages.Viewer;

/**
 * {@code /settings}: the provider's identity, shown to staff, changed by an administrator (the form posts, then
 * redirects; a refused value is shown again with the reason).
 */
@Path("/settings")
@Produces(MediaType.TEXT_HTML)
public class SettingsPage {

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance settings(SettingsView page);
    }

    /**
     * What the page shows: the identity (as saved, or as typed when refused), where it comes from, and whether the
     * reader may change it.
     */
    public record SettingsView(String language, String user, ProviderIdentity identity, boolean saved,
            String savedBy, String savedAt, boolean identified, boolean canEdit, boolean done, String error) {
    }

    @Inject
    SettingsService settings;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String get(@QueryParam("lang") String lang, @QueryParam("zone") String zone,
            @QueryParam("saved") String saved, @HeaderParam("Accept-Language") String accept,
            @Context SecurityContext who) {
        Viewer viewer = Viewer.of(lang, zone, accept);
        return page(viewer, who, null, saved != null, null).render();
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_ADMIN})
    @DashboardForm
    public Response save(@RestForm("legal_name") String legalName, @RestForm String address,
            @RestForm("dpo_name") String dpoName, @RestForm("dpo_email") String dpoEmail, @RestForm String contact,
            @RestForm String registration, @RestForm String lang, @Context SecurityContext who) {
        Viewer viewer = Viewer.of(lang, null, null);
        ProviderIdentity typed = new ProviderIdentity(legalName, address, dpoName, dpoEmail, contact, registration);
        try {
            settings.save(who.getUserPrincipal().getName(), typed);
            return Response.seeOther(URI.create("/settings?lang=" + viewer.language() + "&saved=1")).build();
        } catch (SettingsService.Invalid e) {
            SettingsMessages words = MessageBundles.get(SettingsMessages.class,
                    Localized.Literal.of(viewer.language()));
            String said = String.join(" ", e.problems().stream().map(x -> said(words, x)).toList());
            return Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                    .entity(page(viewer, who, typed, false, said).render()).build();
        } catch (ProblemException e) {
            return Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                    .entity(page(viewer, who, typed, false, e.getMessage()).render()).build();
        }
    }

    /** A problem in the page's words: the field's label, then why. */
    static String said(SettingsMessages words, ProviderIdentity.Problem p) {
        String field = switch (p.field()) {
            case "legal_name" -> words.legal_name();
            case "address" -> words.address();
            case "dpo_name" -> words.dpo_name();
            case "dpo_email" -> words.dpo_email();
            case "contact" -> words.contact();
            default -> words.registration();
        };
        return switch (p.kind()) {
            case "required" -> words.problem_required(field);
            case "too_long" -> words.problem_too_long(field, p.max());
            case "not_email" -> words.problem_not_email(field);
            default -> p.field().equals("address") ? words.problem_control_lines(field) : words.problem_control(field);
        };
    }

    private TemplateInstance page(Viewer viewer, SecurityContext who, ProviderIdentity typed, boolean done,
            String error) {
        SettingsService.View view = settings.view();
        return Templates.settings(new SettingsView(viewer.language(), who.getUserPrincipal().getName(),
                typed != null ? typed : view.identity(), view.saved(), view.updatedBy(),
                view.updatedAt() == null ? null : When.of(view.updatedAt(), viewer.zone(), viewer.locale()).local(),
                view.identified(), who.isUserInRole(Role.R_ADMIN), done, error)).setLocale(viewer.locale());
    }
}
