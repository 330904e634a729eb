package app.vigie.web.pages;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import app.vigie.notice.When;
import app.vigie.platform.Numbers;

/**
 * The dashboard's overview: open incidents, each with its next deadline ticking in the browser; a warning while the
 * provider's identity (name, security contact) is not configured, which documents then show as fields to complete.
 */
public record Overview(String language, String zone, String user, When generatedAt, List<Line> incidents, int page,
        int pages, int total, boolean providerIdentified, String filter, Summary summary) {
    // summary: null before the first reminder check has counted

    /** Open incidents per page of the overview. */
    public static final int PAGE_SIZE = 50;

    /** The filter of the incidents with an obligation due within 24 hours. */
    public static final String DUE_SOON = "due-soon";

    /** The filter of the incidents with an obligation late. */
    public static final String LATE = "late";

    /**
     * The summary strip, over every open incident, as the last reminder check counted it ({@code countedAt}): how
     * many are open (now); obligations due within 24 hours and late; alerts not delivered, delivered and not
     * acknowledged; affected tenants missing from the directory; {@code notCounted}: how many more incidents are
     * open now than it counted.
     */
    public record Summary(long open, long dueSoon, long late, long alertsUndelivered, long alertsUnacknowledged,
            long unmappedTenants, When countedAt, long notCounted) {
    }

    /** The query string of this view (filter and page) for links and refreshes, without language and zone. */
    public String filterQuery() {
        return filter.isEmpty() ? "" : "&filter=" + filter;
    }

    /** Whether there are newer (lower-numbered) or older pages. */
    public boolean hasNewer() {
        return page > 1;
    }

    public boolean hasOlder() {
        return page < pages;
    }

    /** The count of open incidents written for the page's language (10,000; 10 000). */
    public String totalText() {
        return Numbers.grouped(total, language);
    }

    public int newerPage() {
        return page - 1;
    }

    public int olderPage() {
        return page + 1;
    }

    /**
     * An open incident: its next deadline ({@code nextDue} null when none is running) in words (the duty's
     * {@code nextTitle}, its legal {@code nextReference}, to whom, for which tenant) and what it is; {@code severity}
     * the highest level assessed among its tenants (LOW to VERY_HIGH), null when none is yet.
     */
    public record Line(String id, String deployment, String status, String classification, When detectedAt,
            long leakedResponses, int affectedTenants, When nextDue, String nextRule, String nextTitle,
            String nextReference, String nextRecipient, String nextTenant, String nextStatus, int open, int late,
            String severity) {
    }

    static final List<String> LEVELS = List.of("LOW", "MEDIUM", "HIGH", "VERY_HIGH");

    /** The highest of the levels given (nulls and unknown words ignored); null when there is none. */
    public static String highest(Collection<String> levels) {
        return levels.stream().filter(l -> l != null && LEVELS.contains(l))
                .max(Comparator.comparingInt(LEVELS::indexOf)).orElse(null);
    }
}
