package app.vigie.compliance.rules;

import java.time.LocalDate;
import java.util.Map;

/**
 * When a rule applies: from {@code from} (inclusive) until {@code until} (exclusive), both dates in the regime's
 * zone, null for open; with the source of those dates. A directive applies in a Member State only once its
 * transposition is in force there: {@code byCountry} gives each known one (a null {@code from} in an entry: not
 * known whether it is in force, said in {@code note}); a country not listed is not known either.
 */
public record InForce(LocalDate from, LocalDate until, String source, Map<String, Transposition> byCountry) {

    public static final InForce ALWAYS = new InForce(null, null, null, null);

    /**
     * A Member State's transposition: in force from {@code from}; unknown ({@code from} null) with why
     * ({@code note}); or both: not before {@code from}, and from then on not known (Italy's duties start nine months
     * after each entity's notice, the first ones from {@code from}).
     */
    public record Transposition(LocalDate from, String source, String note) {
    }

    /** Whether it is transposed per country (a directive). */
    public boolean perCountry() {
        return byCountry != null;
    }
}
