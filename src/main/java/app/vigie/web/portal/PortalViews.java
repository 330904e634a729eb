package app.vigie.web.portal;

import java.util.List;

import app.vigie.notice.ProcessorAlert;
import app.vigie.notice.When;

/** What the customer's portal pages show: its incidents, one incident with its alerts and questionnaire. */
public final class PortalViews {
    private PortalViews() {
    }

    /** The data categories the questionnaire offers (their labels: PageMessages' category_*). */
    static final List<String> CATEGORIES = List.of("identity", "contact", "identifiers", "financial", "location",
            "behaviour", "communications", "professional");

    /** The ease of identification the questionnaire offers (ENISA's scale). */
    static final List<String> EASE = List.of("negligible", "limited", "significant", "maximum");

    public record Home(String language, String zone, String user, String tenant, List<Line> incidents) {
    }

    public record Line(String id, String deployment, String status, When detectedAt, long exposedRequests,
            long receivedRequests, int unacknowledged) {
    }

    public record IncidentPortal(String language, String zone, String user, String tenant, String id,
            ProcessorAlert alert, List<AlertLine> alerts, boolean done, Questionnaire questionnaire,
            String severity, String error) {
    }

    /** The questionnaire as last answered (to revise it): which boxes are ticked, the numbers given. */
    public record Questionnaire(String personalData, List<Choice> categories, List<Choice> special, String persons,
            String identification, boolean answered) {
    }

    public record Choice(String code, String label, boolean checked) {
    }

    public record AlertLine(long id, String phase, When createdAt, When acknowledgedAt) {
    }
}
