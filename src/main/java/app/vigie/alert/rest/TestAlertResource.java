package app.vigie.alert.rest;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.alert.TestAlertService;
import app.vigie.security.Role;

/**
 * {@code POST /api/tenants/{id}/test-alert}: a test alert to each of the tenant's channels now, answering what each
 * receiver said (DPO; audited).
 */
@Path("/api/tenants/{id}/test-alert")
@Produces(MediaType.APPLICATION_JSON)
public class TestAlertResource {

    @Inject
    TestAlertService tests;

    @POST
    @RolesAllowed({Role.R_DPO})
    public TestAlertService.Result send(@PathParam("id") String tenant, @Context SecurityContext who) {
        return tests.send(who.getUserPrincipal().getName(), tenant);
    }
}
