package app.vigie.incident;

import java.util.UUID;

import app.vigie.problem.ProblemException;

/** An incident's id in a path: what is not a UUID names no incident (404, like an unknown one). */
public final class IncidentIds {
    private IncidentIds() {
    }

    public static UUID uuid(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw notFound(id);
        }
    }

    public static ProblemException notFound(String id) {
        return new ProblemException(404, "no incident " + id);
    }
}
