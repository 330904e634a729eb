package app.vigie.notice;

import java.util.List;
import java.util.UUID;

/**
 * A controller's notification of a personal data breach to its supervisory authority (GDPR Art. 33(1), 33(3)), in
 * the order of the CNIL's online form; a draft Vigie prepares from what it knows and what the controller stated,
 * issued in versions (INITIAL, then COMPLEMENTARY) that keep their history. Unknown facts stay null and the page
 * says "not known yet". {@code contact}: a contact point other than the DPO; {@code discovery}: how the breach was
 * discovered, as stated, else null; {@code complementaryDueAt}: after an initial notification, when the CNIL
 * expects the complementary one (within 72 hours of the initial one's filing with it, as recorded, where possible); {@code legalBasis}: the
 * citation of the notification duty in the document's language; {@code cnilForm}: addressed to the CNIL (the page
 * follows its form); {@code notRequiredReason}: why no notification to an authority is required, when none is.
 */
public record AuthorityNotification(String language, String zone, When generatedAt, UUID incidentId,
        Integer version, String phase, List<Issued> history, List<Recipient> authorities, Organisation organisation,
        Contact dpo, Contact contact, List<Involved> othersInvolved, Dates dates, Nature nature, String origin,
        List<ProcessorAlert.FindingLine> findings, String description, DataConcerned data, PersonsConcerned persons, String securityMeasuresBefore,
        String likelyConsequences, Severity severity, List<ProcessorAlert.Measure> measuresTaken,
        String measuresProposed, PersonsInformation personsInformation, List<OtherNotification> otherNotifications,
        Delay delay, String rulesVersion, String discovery, When complementaryDueAt, String legalBasis,
        boolean cnilForm, String notRequiredReason) {

    public record Issued(int version, String phase, When issuedAt) {
    }

    public record Recipient(String code, String name, String url) {
    }

    /**
     * The controller; {@code mapped} false when the tenant is not in the directory (its controller unknown).
     * {@code mainEstablishment}: its main establishment in the EEA where the directory records one apart from its
     * country (the lead authority's, GDPR Art. 56(1)); {@code euRepresentative}: its representative's country (Art.
     * 27).
     */
    public record Organisation(String tenant, String legalName, String companyId, String country, boolean mapped,
            String sector, String address, String mainEstablishment, String euRepresentative) {
        /** The name documents give it: its legal name, or its tenant when the directory has none. */
        public String name() {
            return legalName != null ? legalName : tenant;
        }
    }

    public record Contact(String name, String email, String phone) {
    }

    public record Involved(String role, String legalName, String contact) {
    }

    /** Each time with whether it is established (from the page audit log) or supposed. */
    public record Dates(When start, boolean startEstablished, When end, boolean endEstablished, boolean ongoing,
            When awareness, When processorNotification) {
    }

    /** Each loss as recorded: true, false, or null while nothing records it either way. */
    public record Nature(Boolean confidentiality, Boolean integrity, Boolean availability) {
    }

    /**
     * {@code specialCategories}: Art. 9's; {@code criminal}: Art. 10's (convictions and offences), apart, as the
     * CNIL's form asks; {@code unintelligible}: YES, NO, PARTLY (encrypted or otherwise unintelligible) or null.
     */
    public record DataConcerned(List<String> categories, List<String> specialCategories, List<String> criminal,
            Long approximateRecords, long exposedRequests, long exposedTokens, String unintelligible) {
    }

    public record PersonsConcerned(List<String> categories, Long approximateNumber) {
    }

    /** The level that counts: the controller's ({@code decided}, with its justification) or ENISA's suggestion. */
    public record Severity(String level, Double score, boolean decided, String justification, String basis) {
    }

    /** DONE, PLANNED or NOT (with the reason), or null when the controller has not said. */
    public record PersonsInformation(String status, When when, String reason, String obligationStatus) {
    }

    public record OtherNotification(String regime, String regimeText, String rule, String kindText, String recipient,
            String status, String statusText, When dueAt) {
    }

    /**
     * Notified (or, not yet notified, now) after the due time: {@code reasonsRequired} where the law asks for the
     * reasons of the delay (GDPR Art. 33(1)).
     */
    public record Delay(boolean late, When dueAt, String reasons, boolean reasonsRequired) {
    }
}
