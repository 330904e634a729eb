package app.vigie.settings.rest;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.security.Role;
import app.vigie.settings.ProviderIdentity;
import app.vigie.settings.SettingsService;

/**
 * {@code /api/settings/provider}: the provider's identity as its documents state it. Staff read it; an administrator
 * replaces it (audited); until then the environment's values stand.
 */
@Path("/api/settings/provider")
@Produces(MediaType.APPLICATION_JSON)
public class SettingsResource {

    @Inject
    SettingsService settings;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public SettingsService.View get() {
        return settings.view();
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_ADMIN})
    public SettingsService.View put(ProviderIdentity body, @Context SecurityContext who) {
        return settings.save(who.getUserPrincipal().getName(), body);
    }
}
