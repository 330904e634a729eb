package app.vigie.notice;

import java.util.List;

/**
 * The controller's communication to the persons concerned (GDPR Art. 34), in plain language: what happened, its
 * likely consequences, the measures taken, what the person can do, whom to contact. The controller sends it; Vigie
 * drafts it from the incident and the controller's statements. {@code exposed}: data of the controller's own
 * requests were read by others; without it the draft says it has no object. {@code readByOtherCustomers}: by
 * requests of the provider's other customers; {@code readByOwnRequests}: by other requests of the controller itself
 * (its own service's other users): the draft says which was recorded. {@code authorityName}: the authority of the
 * controller's establishment (null for a controller established outside the EEA); {@code gdprComplaint}: the GDPR
 * applies, so the person may also complain where they live or work (Art. 77(1)); {@code authorityUnderGdpr}: the
 * controller's authority is a GDPR supervisory authority (not the ICO or the FDPIC, each under its own law).
 */
public record DataSubjectCommunication(String language, String zone, When generatedAt, String controller,
        String contact, String dpoName, String dpoEmail, When start, When end, boolean ongoing,
        List<String> dataCategories, List<String> specialCategories, String likelyConsequences,
        List<ProcessorAlert.Measure> measuresTaken, String measuresProposed, String authorityName,
        String authorityUrl, boolean gdprComplaint, boolean authorityUnderGdpr, boolean exposed, boolean readByOtherCustomers, boolean readByOwnRequests) {
}
