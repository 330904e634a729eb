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

    /** The incident, when {@code tenant} has an exposure in it (as victim or recipient); 404 otherwise. */
    public static IncidentView affected(IncidentView incident, String tenant) {
        if (!incident.victimTenants().contains(tenant) && !incident.recipientTenants().contains(tenant)) {
            throw new ProblemException(404, "tenant '" + tenant + "' has no exposure in incident " + incident.id()
                    + (possiblyAffected(incident, tenant) ? " (only possible ones: its processor alert tells them)"
                            : ""));
        }
        return incident;
    }

    /** Whether a possible exposure of the incident (spec 1.3, amendment 3) touches the tenant. */
    public static boolean possiblyAffected(IncidentView incident, String tenant) {
        return incident.possibleVictimTenants().contains(tenant) || incident.possibleRecipientTenants().contains(tenant);
    }

    /** An incident's id as download names carry it: its first 8 hexadecimal digits. */
    public static String shortId(UUID id) {
        return id.toString().substring(0, 8);
    }

    public static ProblemException notFound(String id) {
        return new ProblemException(404, "no incident " + id);
    }
}
