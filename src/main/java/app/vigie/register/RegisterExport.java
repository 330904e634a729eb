package app.vigie.register;

import java.util.List;

import app.vigie.notice.When;

/**
 * The register as a regulator reads it (PDF): its entries with times in the reader's zone, and the chain's state
 * when it was printed (valid, how many entries, its head hash: keep it to prove later that nothing was rewritten).
 */
public record RegisterExport(String language, String zone, When generatedAt, String register, boolean valid,
        long chainEntries, String head, Long firstBroken, List<Line> entries) {

    /**
     * One entry as the document shows it, codes in words of the document's language: the facts ({@code findings},
     * the records), the effects ({@code consequences}, the persons), the remedial action ({@code measures}), the
     * data categories, the awareness and the reasons for a delay (GDPR Art. 33(5)).
     */
    public record Line(long id, String register, String controller, String incidentId, When recordedAt,
            String nature, When firstExposureAt, When lastExposureAt, RegisterEntry.Records records,
            RegisterEntry.Persons persons, List<Notice> authorities, List<Notice> dataSubjects, List<String> measures,
            String severity, String hash, List<String> findings, String consequences, List<String> dataCategories,
            List<String> specialCategories, When awareAt, String delayReasons, List<String> decisions) {

        /** The special categories of personal data (GDPR Art. 9) among {@code specialCategories}. */
        public List<String> article9() {
            return specialCategories == null ? List.of()
                    : specialCategories.stream().filter(c -> !c.equals(CRIMINAL_CONVICTIONS)).toList();
        }

        /**
         * Whether personal data relating to criminal convictions and offences were concerned: GDPR Art. 10, which is
         * not a special category of Art. 9 (the register says them apart).
         */
        public boolean article10() {
            return specialCategories != null && specialCategories.contains(CRIMINAL_CONVICTIONS);
        }
    }

    /** The code of data relating to criminal convictions and offences (GDPR Art. 10) among the special categories. */
    static final String CRIMINAL_CONVICTIONS = "criminal_convictions";

    public record Notice(String recipient, String status, When doneAt, String evidence, String reason) {
    }
}
