package app.vigie.alert.web;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import org.jboss.resteasy.reactive.RestForm;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.alert.TestAlertService;
import app.vigie.security.Role;
import app.vigie.web.csrf.DashboardForm;
import app.vigie.web.pages.Viewer;

/** The directory's "send a test alert" button: sends it, then shows each receiver's answer. */
@Path("/tenants/test-alert")
@Produces(MediaType.TEXT_HTML)
public class TestAlertPage {

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance test_alert(TestAlertView page);
    }

    /** The page: who reads it, in which language, and the answers. */
    public record TestAlertView(String language, String user, TestAlertService.Result result) {
    }

    @Inject
    TestAlertService tests;

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public String send(@RestForm String tenant, @RestForm String lang, @Context SecurityContext who) {
        Viewer viewer = Viewer.of(lang, null, null);
        String user = who.getUserPrincipal().getName();
        return Templates.test_alert(new TestAlertView(viewer.language(), user, tests.send(user, tenant)))
                .setLocale(viewer.locale()).render();
    }
}
