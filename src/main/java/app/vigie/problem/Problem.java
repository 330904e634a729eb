package app.vigie.problem;

import jakarta.ws.rs.core.Response;

/** An RFC 9457 problem document. */
public record Problem(String type, String title, int status, String detail) {
    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(int status, String detail) {
        Response.Status s = Response.Status.fromStatusCode(status);
        String title = s != null ? s.getReasonPhrase() : "HTTP " + status;
        return new Problem("about:blank", title, status, detail);
    }

    public Response toResponse() {
        return Response.status(status).type(MEDIA_TYPE).entity(this).build();
    }
}
