package app.vigie.web.pages;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import app.vigie.notice.IncidentReport;
import app.vigie.notice.When;

/**
 * The incident page: facts, timeline, the exposure matrix (victims x recipients), each party's obligations,
 * findings, measures, and the action forms ({@code canAct}: the user may change it) with what was typed into them
 * when an action was refused ({@code notice} says why).
 */
public record IncidentPage(String language, String zone, String user, String id, String deployment, String status,
        String statusReason, String classification, When detectedAt, When firstExposureAt, When lastExposureAt,
        long leakedResponses, Matrix matrix, List<CaseLine> cases, List<FindingLine> findings, int findingsTotal,
        List<FindingKind> findingKinds,
        List<IncidentReport.Event> timeline, List<MeasureLine> measures, boolean canAct, List<String> nextStatuses,
        List<Choice> openDuties, String now, Notice notice, String formStatus, String formReason,
        String formTakenAt, String formText, String formDuty, String formDoneAt, String formEvidence,
        String formLateReasons, List<AlertLine> alerts, List<NextDuty> next, List<CustomerLine> customers) {

    /**
     * An open obligation of any party, in the order they fall due (those without a due time last): who holds it
     * ({@code party}: the provider, or a customer's controller), in whose case ({@code tenant}, null: the
     * provider's), what it is in words, to whom, its status and due time, and {@code key} the value of the
     * "obligation done" form's choice for it.
     */
    public record NextDuty(String tenant, String party, String title, String reference, String recipient,
            String status, When dueAt, String key) {
        /** {@link #key} for a query string. */
        public String keyParam() {
            return URLEncoder.encode(key, StandardCharsets.UTF_8);
        }
    }

    /**
     * An affected customer: how it was exposed ({@code role}: VICTIM, RECIPIENT or BOTH), its counts, whether the
     * directory knows it ({@code controller} null when not), its alert (delivered, acknowledged: null when not),
     * and its own next deadline ({@code nextTitle} null when none runs).
     */
    public record CustomerLine(String tenant, String controller, String role, long exposedRequests,
            long exposedTokens, long receivedTokens, boolean alerted, When alertDeliveredAt, When acknowledgedAt,
            String nextTitle, When nextDue) {
    }

    /** A customer alert of this incident: to whom, which phase, how its deliveries stand, when acknowledged. */
    public record AlertLine(String tenant, String phase, When createdAt, String deliveries, When acknowledgedAt) {
    }

    /** The matrix drawn as an SVG: row and column labels, and a cell for each pair with tokens. */
    public record Matrix(int width, int height, List<Label> rows, List<Label> columns, List<Cell> cells) {
    }

    public record Label(int x, int y, String text) {
    }

    /** A cell: its place, its shade (0 lightest to 4 darkest, by the order of magnitude of its tokens) and count. */
    public record Cell(int x, int y, int size, int shade, long tokens, String title, int textX, int textY) {
    }

    /** A party's case; {@code severity} the level that counts for a tenant (null: not assessed; the provider). */
    public record CaseLine(String tenant, String controller, List<Duty> obligations, String severity) {
    }

    /** An obligation's line; {@code evidence}: the last completion's (a receipt number), null while not done. */
    public record Duty(String rule, String title, String reference, String recipient, String status, When dueAt,
            String basis, String evidence) {
    }

    /**
     * The findings of one kind (a detector rule): its name and what it means in the page's language, how many there
     * are, the first seen.
     */
    public record FindingKind(String rule, String name, String meaning, int count, When firstSeen) {
    }

    public record FindingLine(String rule, String name, String subject, String stream, long firstSeq, When seenAt) {
    }

    public record MeasureLine(When takenAt, String text, String by) {
    }

    /** An open obligation to choose in the completion form: {@code key} = tenant|rule|recipient. */
    public record Choice(String key, String label) {
    }

    /** The outcome of the last action: done (which form) or refused (which form, why). */
    public record Notice(boolean error, String form, String message) {
    }
}
