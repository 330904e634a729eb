package app.vigie.tenant;

import java.util.List;
import java.util.Set;

/**
 * A tenant of the inference service mapped to its controller (GDPR): who must be alerted, how, how fast, and which
 * laws and sectors apply. {@code id} is the tenant name used in the page audit log. {@code processorIsAgent}: the
 * provider acts as the controller's agent (HIPAA, 45 CFR 164.404(a)(2): its discovery is then the covered entity's);
 * null or false otherwise. {@code mainEstablishment}: the country of its main establishment in the EEA (GDPR Art.
 * 4(16)), where it is not {@code country} (a group whose Union seat is elsewhere): it decides the lead authority
 * (Art. 56(1)), nothing else; null: {@code country}. {@code euRepresentative}: the country of the
 * representative a controller without an establishment in the Union designated (Art. 27); it does not make a lead
 * authority (no one-stop shop), it is said in the documents.
 */
public record Tenant(String id, String legalName, String country, String companyId, Dpo dpo,
        List<AlertChannel> alertChannels, String alertDelay, List<String> jurisdictions, List<String> sectors,
        Boolean processorIsAgent, String mainEstablishment, String euRepresentative) {

    /** The entry as stored: absent lists empty, {@code processorIsAgent} true or false. */
    public Tenant withDefaults() {
        return new Tenant(id, legalName, country, companyId, dpo, alertChannels == null ? List.of() : alertChannels,
                alertDelay, jurisdictions == null ? List.of() : jurisdictions, sectors == null ? List.of() : sectors,
                Boolean.TRUE.equals(processorIsAgent), mainEstablishment, euRepresentative);
    }

    /** Countries whose controllers get Vigie's documents and alerts in French; the others get them in English. */
    private static final Set<String> FRENCH_SPEAKING = Set.of("FR", "BE", "LU", "MC", "CH");

    /** The language documents and alerts are written in for a controller of {@code country}: fr or en. */
    public static String language(String country) {
        return country != null && FRENCH_SPEAKING.contains(country) ? "fr" : "en";
    }

    /** Where its lead data protection authority is: its main establishment, else its country. */
    public String establishment() {
        return mainEstablishment != null ? mainEstablishment : country;
    }

    /** The controller's data protection officer. */
    public record Dpo(String name, String email, String phone) {
    }

    /** Where alerts go: {@code webhook} (an https URL), {@code email} (an address) or {@code kafka} (a key). */
    public record AlertChannel(String type, String target) {
    }
}
