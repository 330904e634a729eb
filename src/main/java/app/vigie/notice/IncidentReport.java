package app.vigie.notice;

import java.util.List;
import java.util.UUID;

/**
 * The provider's report of an incident for a regulator: the facts, the timeline (from the audit trail), the
 * technical cause (the detector's findings, and the known causes they match), the exposure per tenant, each case's decisions with their reasoning
 * and its obligations, the measures.
 */
public record IncidentReport(String language, String zone, When generatedAt, ProcessorAlert.Party processor,
        Facts facts, List<ProcessorAlert.FindingLine> findings, TechnicalCause technicalCause, List<Event> timeline, List<TenantLine> exposure, List<Case> cases,
        List<ProcessorAlert.Measure> measures, List<DecisionLine> providerDecisions,
        List<ProcessorAlert.Duty> providerObligations, String rulesVersion, List<PossibleLine> possibleExposure) {

    public IncidentReport {
        possibleExposure = possibleExposure == null ? List.of() : possibleExposure;
    }

    /**
     * Whether possible exposures (spec 1.3, amendment 3) are the incident's only ones: its first and last exposure are
     * then possible ones, and the documents say so.
     */
    public boolean possibleOnly() {
        return !possibleExposure.isEmpty()
                && exposure.stream().allMatch(t -> t.exposedTokens() == 0 && t.receivedTokens() == 0);
    }

    /** Whether the incident has possible exposures: its first and last exposure may be possible ones. */
    public boolean anyPossible() {
        return !possibleExposure.isEmpty();
    }

    /**
     * A customer's possible exposure (spec 1.3, amendment 3): tokens of its requests possibly read, and tokens its
     * requests possibly received, where another request wrote the pages while a transfer between nodes read them.
     */
    public record PossibleLine(String tenant, String controller, long possiblyExposedTokens,
            long possiblyReceivedTokens) {
    }

    public record Facts(UUID id, String deployment, String status, String statusText, String statusReason,
            String classification,
            When detectedAt, When firstExposureAt, When lastExposureAt, long leakedResponses) {
    }

    /** One recorded change: when, what (an audit action), who, on what. */
    public record Event(When at, String action, String actor, String target) {
    }

    public record TenantLine(String tenant, String controller, List<String> roles, long exposedRequests,
            long exposedTokens, long receivedTokens, long responsesReceived) {
    }

    public record DecisionLine(String name, String nameText, boolean value, When at, String justification) {
    }

    /** A controller's case: its awareness, severity and why, its decisions, its obligations. */
    public record Case(String tenant, String controller, When awareAt, String severityText,
            AuthorityNotification.Severity severity,
            List<DecisionLine> decisions, List<ProcessorAlert.Duty> obligations) {
    }
}
