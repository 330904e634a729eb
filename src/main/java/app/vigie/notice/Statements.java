package app.vigie.notice;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import app.vigie.tenant.TenantValidator;

/**
 * What the controller states of its case, which the processor cannot know (it does not read prompts): the data
 * and persons concerned, the likely consequences, its own measures, whether it informed the persons, its reasons
 * for a delay. Feeds the authority notification and the data-subject communication. Every field may be absent
 * ("not known yet").
 */
public record Statements(List<String> dataCategories, List<String> specialCategories, Long approximateRecords,
        List<String> personCategories, Long approximatePersons, String likelyConsequences,
        String securityMeasuresBefore, String measuresProposed, String personsInformed, String personsInformedAt,
        String personsNotInformedReason, String delayReasons, String contactForPersons, String sector,
        String address, String discovery, String dataUnintelligible, String contactName, String contactEmail,
        String contactPhone) {

    public static final Statements NONE = new Statements(List.of(), List.of(), null, List.of(), null, null, null,
            null, null, null, null, null, null, null, null, null, null, null, null, null);

    /**
     * Whether the data were encrypted or otherwise unintelligible to whoever read them (the CNIL's form asks):
     * YES, NO, PARTLY, or null while not stated.
     */
    public static final Set<String> UNINTELLIGIBLE = Set.of("YES", "NO", "PARTLY");

    /** Art. 9 and Art. 10 categories, as the CNIL's form lists them. */
    public static final Set<String> SPECIAL = Set.of("racial_or_ethnic_origin", "political_opinions",
            "religious_or_philosophical_beliefs", "trade_union_membership", "genetic", "biometric", "health",
            "sex_life_or_orientation", "criminal_convictions");

    public static final Set<String> INFORMED = Set.of("DONE", "PLANNED", "NOT");

    /** Every problem, named. */
    public List<String> problems() {
        List<String> p = new ArrayList<>();
        for (List<String> l : Arrays.asList(dataCategories, specialCategories, personCategories)) {
            if (l != null && l.stream().anyMatch(Objects::isNull)) {  // List.of().contains(null) throws
                p.add("'data_categories', 'special_categories' and 'person_categories' have no null entry");
                break;
            }
        }
        for (String s : specialCategories == null ? List.<String>of() : specialCategories) {
            if (s != null && !SPECIAL.contains(s)) {
                p.add("'special_categories' entries are " + new TreeSet<>(SPECIAL) + ", got '" + s + "'");
            }
        }
        if (approximateRecords != null && approximateRecords < 0) {
            p.add("'approximate_records' is 0 or more");
        }
        if (approximatePersons != null && approximatePersons < 0) {
            p.add("'approximate_persons' is 0 or more");
        }
        if (personsInformed != null && !INFORMED.contains(personsInformed)) {
            p.add("'persons_informed' is DONE, PLANNED or NOT");
        }
        if ("NOT".equals(personsInformed) && blank(personsNotInformedReason)) {
            p.add("'persons_not_informed_reason' is required when 'persons_informed' is NOT (GDPR Art. 34(3))");
        }
        if (personsInformedAt != null) {
            try {
                OffsetDateTime.parse(personsInformedAt);
            } catch (DateTimeParseException e) {
                p.add("'persons_informed_at' must be an RFC 3339 time with its offset");
            }
        }
        if (dataUnintelligible != null && !UNINTELLIGIBLE.contains(dataUnintelligible)) {
            p.add("'data_unintelligible' is YES, NO or PARTLY");
        }
        if (contactEmail != null && !TenantValidator.isEmail(contactEmail)) {
            p.add("'contact_email' must be an e-mail address");
        }
        for (String s : new String[] {likelyConsequences, securityMeasuresBefore, measuresProposed,
                personsNotInformedReason, delayReasons, contactForPersons, sector, address, discovery, contactName,
                contactEmail, contactPhone}) {
            if (s != null && s.length() > 8000) {
                p.add("texts have at most 8000 characters");
                break;
            }
        }
        return p;
    }

    /** The same, with absent lists empty. */
    public Statements normalized() {
        return new Statements(orEmpty(dataCategories), orEmpty(specialCategories), approximateRecords,
                orEmpty(personCategories), approximatePersons, likelyConsequences, securityMeasuresBefore,
                measuresProposed, personsInformed, personsInformedAt, personsNotInformedReason, delayReasons,
                contactForPersons, sector, address, discovery, dataUnintelligible, contactName, contactEmail,
                contactPhone);
    }

    private static List<String> orEmpty(List<String> l) {
        return l == null ? List.of() : l;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
