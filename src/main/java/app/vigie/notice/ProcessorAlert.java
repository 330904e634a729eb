package app.vigie.notice;

import java.util.List;
import java.util.UUID;

/**
 * The processor's alert to one controller (GDPR Art. 33(2)), as its templates and its JSON see it: what happened and
 * when, which of the controller's own requests had tokens exposed or received tokens of other customers (who are
 * never named), the measures taken, the contact, and what the controller must decide and by when.
 */
public record ProcessorAlert(String language, String zone, When generatedAt, Incident incident, Party processor,
        Controller controller, List<RequestLine> exposed, List<RequestLine> received, Totals totals,
        List<Measure> measures, List<Duty> duties, String rulesVersion, List<FindingLine> findings,
        boolean gdprClock, String gdprClockSource, List<RequestLine> possiblyExposed,
        List<RequestLine> possiblyReceived, Boolean possibleBreach, When possibleDecidedAt) {

    public ProcessorAlert {
        // an alert's body rendered before spec 1.3 (kept, sent again as it was) has none
        possiblyExposed = possiblyExposed == null ? List.of() : possiblyExposed;
        possiblyReceived = possiblyReceived == null ? List.of() : possiblyReceived;
    }

    /**
     * Whether the controller's data was possibly read, or its requests possibly received others' (spec 1.3,
     * amendment 3): the pages were written by another request while a transfer between two nodes was reading them,
     * and the log cannot tell which content was read. Told apart, never as established.
     */
    public boolean possible() {
        return !possiblyExposed.isEmpty() || !possiblyReceived.isEmpty();
    }

    /**
     * Whether everything this alert tells is possible only: nothing of the controller is established as read, and the
     * processor's DPO has not decided that the possible exposures are a breach ({@code possibleBreach}: true, they
     * are; false, they are not; null, not decided yet; {@code possibleDecidedAt}: when).
     */
    public boolean possibleOnly() {
        return possible() && exposed.isEmpty() && received.isEmpty() && !Boolean.TRUE.equals(possibleBreach);
    }

    /**
     * What the detector recorded in the incident, by kind, in the document's language: the nature of the breach
     * as far as it is established. {@code gdprClock}: the controller's own notification to a data protection
     * authority runs from its awareness under the GDPR or the UK GDPR (the 72 hours), said only then.
     */
    public record FindingLine(String code, String text, long count) {
    }

    /** The incident; {@code ongoing} while it is not closed (no end of the exposure can be stated yet). */
    public record Incident(UUID id, String deployment, String status, When detectedAt, When firstExposureAt,
            When lastExposureAt, boolean ongoing, boolean delivered) {
    }

    /** The processor: its name and contact as configured; null where not configured (a field to complete). */
    public record Party(String legalName, String contact) {
        /** Whether the provider's identity is configured: a document to an authority cannot be issued without it. */
        public boolean identified() {
            return legalName != null && contact != null;
        }
    }

    public record Controller(String tenant, String legalName, String companyId, String dpoName, String dpoEmail,
            String dpoPhone, boolean mapped) {
    }

    /**
     * One of the controller's requests: its tokens exposed to (or received from) {@code otherRequests} requests of
     * other customers (or of its own, {@code sameTenant}); {@code delivered}: how many of the reading responses
     * left the service.
     */
    /**
     * {@code delivered}: the other side's responses known to have left the service; {@code undetermined}: those whose
     * delivery is not known yet (no FINISH applied), never counted as not delivered.
     */
    public record RequestLine(String request, long tokens, When firstSeenAt, int otherRequests, int delivered,
            boolean sameTenant, int undetermined) {
    }

    public record Totals(long exposedRequests, long exposedTokens, long receivedRequests, long receivedTokens,
            long responsesReceived, long responsesUndetermined) {
    }

    public record Measure(When takenAt, String text) {
    }

    /**
     * What the controller must do: the obligation, its recipient, its due time (or why it has none yet), each code
     * with its words in the document's language ({@code ...Text}, from templates/notices/words.yaml), the legal
     * citation in that language.
     */
    public record Duty(String rule, String regime, String regimeText, String kind, String kindText,
            String recipientCode, String recipient, String status, String statusText, When dueAt, String dueBasis,
            String basisText, When outerLimitAt, String condition, String conditionText, String reasonCode,
            String reasonText, String source, String note) {
    }

    /**
     * A list of requests longer than this is given whole in an annex (at the end of the PDF, below the page) and in a
     * CSV file attached to the PDF; the body shows its first {@link #SHOWN} lines and the summary.
     */
    public static final int ANNEX_OVER = 50;
    /** How many lines of an annexed list the body shows. */
    public static final int SHOWN = 20;

    /** Whether the exposed requests are listed in an annex. */
    public boolean exposedAnnexed() {
        return exposed.size() > ANNEX_OVER;
    }

    /** Whether the requests that received other customers' data are listed in an annex. */
    public boolean receivedAnnexed() {
        return received.size() > ANNEX_OVER;
    }

    /** The exposed requests the body shows: all of them, or the first {@link #SHOWN} when annexed. */
    public List<RequestLine> exposedShown() {
        return exposedAnnexed() ? exposed.subList(0, SHOWN) : exposed;
    }

    /** The requests that received other customers' data the body shows. */
    public List<RequestLine> receivedShown() {
        return receivedAnnexed() ? received.subList(0, SHOWN) : received;
    }

    /**
     * A line of the summary table: requests, their tokens, the other side's responses that left the service and those
     * not known yet (for received requests: their own responses).
     */
    public record Summary(long requests, long tokens, long left, long notKnown) {
    }

    /** The exposed requests read by requests of other customers ({@code own} false) or of the controller's own. */
    public Summary exposedBy(boolean own) {
        List<RequestLine> lines = exposed.stream().filter(l -> l.sameTenant() == own).toList();
        return new Summary(lines.size(), lines.stream().mapToLong(RequestLine::tokens).sum(),
                lines.stream().mapToLong(RequestLine::delivered).sum(),
                lines.stream().mapToLong(RequestLine::undetermined).sum());
    }

    /** The requests that received other customers' data. */
    public Summary receivedSummary() {
        return new Summary(received.size(), totals.receivedTokens(), totals.responsesReceived(),
                totals.responsesUndetermined());
    }

    /** The duties to show in the table: every one but a regime's "no duty", which is said in words below it. */
    public List<Duty> tableDuties() {
        return duties.stream().filter(d -> !"NONE".equals(d.kind())).toList();
    }

    /** The duties with a note (what the law leaves open, what Vigie does not compute, what a regime does not require). */
    public List<Duty> notedDuties() {
        return duties.stream().filter(d -> d.note() != null).toList();
    }
}
