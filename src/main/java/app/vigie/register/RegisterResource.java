package app.vigie.register;

import java.sql.SQLException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.export.Csv;
import app.vigie.notice.Reader;
import app.vigie.security.Role;
import app.vigie.time.Zones;

/**
 * {@code /api/register}: the violation registers (GDPR Art. 33(5)) of the controllers and the provider's own, one
 * append-only hash chain; an entry is appended from an incident's facts as they stand; {@code verify} proves the
 * chain or names its first broken entry; a CSV export.
 */
@Path("/api/register")
@Produces(MediaType.APPLICATION_JSON)
public class RegisterResource {

    @Inject
    RegisterService register;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Response append(RegisterService.AppendBody body, @Context SecurityContext who) throws SQLException {
        return Response.status(201).entity(register.append(body, who.getUserPrincipal().getName())).build();
    }

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Register.Stored> list(@QueryParam("register") String reg, @QueryParam("incident") String inc)
            throws SQLException {
        return register.list(reg, inc);
    }

    @GET
    @Path("verify")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public RegisterChain.Verdict verify() throws SQLException {
        return register.verify();
    }

    @GET
    @Path("export.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response csv(@QueryParam("register") String reg, @QueryParam("zone") @DefaultValue(Zones.DEFAULT)
            String zoneName) throws SQLException {
        return Csv.attachment(register.csv(reg, zoneName));
    }

    @GET
    @Path("export.pdf")
    @Produces("application/pdf")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response pdf(@QueryParam("register") String reg, @QueryParam("lang") @DefaultValue("fr") String langParam,
            @QueryParam("zone") @DefaultValue(Zones.DEFAULT) String zoneName) throws SQLException {
        return Reader.answer(register.pdf(reg, langParam, zoneName));
    }
}
