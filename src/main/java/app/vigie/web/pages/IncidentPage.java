package app.vigie.web.pages;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import app.vigie.notice.IncidentReport;
import app.vigie.notice.TechnicalCause;
import app.vigie.notice.When;

/**
 * The incident page: its header (the next deadline, severity, customers, what is late), what to do next, the
 * customers, what happened (the leaking responses over time, whose tokens reached whom), the evidence (findings by
 * kind, their rows a page at a time), each party's obligations, alerts, events, measures, and the action forms
 * ({@code canAct}: the user may change it; {@code canDirect}: may change the directory and resend alerts) with what
 * was typed into them when an action was refused ({@code notice} says why).
 */
public record IncidentPage(String language, String zone, String user, String id, String deployment, String status,
        String statusReason, String classification, When detectedAt, When firstExposureAt, When lastExposureAt,
        long leakedResponses, Matrix matrix, List<CaseLine> cases, List<FindingLine> findings, int findingsTotal,
        List<FindingKind> findingKinds,
        List<IncidentReport.Event> timeline, List<MeasureLine> measures, boolean canAct, List<String> nextStatuses,
        List<Choice> openDuties, String now, Notice notice, String formStatus, String formReason,
        String formTakenAt, String formText, String formDuty, String formDoneAt, String formEvidence,
        String formLateReasons, List<AlertLine> alerts, List<NextDuty> next, List<CustomerLine> customers,
        Header header, Picture picture, Evidence evidence, List<DecisionChoice> decisions, boolean canDirect,
        Map<String, String> typed, TechnicalCause causes, String possibleDecision) {

    /**
     * Whether every exposure of the incident is a possible one (spec 1.3, amendment 3): its first and last exposure
     * are then possible ones, and the page says so.
     */
    public boolean possibleOnly() {
        if (possibleDecision == null) {
            return false;
        }
        for (MatrixRow row : matrix.rows()) {
            for (MatrixCell cell : row.cells()) {
                if (cell.cross() || cell.same()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** What was typed into one of the newer forms (decision, directory entry) when the action was refused. */
    public String typed(String field) {
        return typed.getOrDefault(field, "");
    }

    /**
     * An open obligation of any party, in the order they fall due (those without a due time last): who holds it
     * ({@code party}: the provider, or a customer's controller), in whose case ({@code tenant}, null: the
     * provider's), what it is in words, to whom, its status and due time, and {@code key} the value of the
     * "obligation done" form's choice for it.
     */
    public record NextDuty(String tenant, String party, String title, String reference, String recipient,
            String status, When dueAt, String key, boolean undecided) {
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
            String nextTitle, When nextDue, List<Retry> retries, long possiblyExposedTokens,
            long possiblyReceivedTokens) {
        /** {@link #tenant} as one segment of a path (a tenant name of the logs may hold any character). */
        public String tenantParam() {
            return IncidentPage.segment(tenant);
        }
    }

    /** A customer alert of this incident: to whom, which phase, how its deliveries stand, when acknowledged. */
    public record AlertLine(String tenant, String phase, When createdAt, String deliveries, When acknowledgedAt) {
    }

    /**
     * Whose tokens reached whom: {@code columns} the readers' tenants (null: the others summed), each row a victim's
     * tenant ({@code victim} null: the others) with a cell per column; {@code victims} and {@code readers} how many
     * tenants each side has in all.
     */
    public record Matrix(List<String> columns, List<MatrixRow> rows, int victims, int readers) {
        public boolean summed() {
            return otherVictims() > 0 || otherReaders() > 0;
        }

        /** How many victims' tenants the "others" row sums (0: none). */
        public int otherVictims() {
            return victims - (int) rows.stream().filter(r -> r.victim() != null).count();
        }

        /** How many readers' tenants the "others" column sums (0: none). */
        public int otherReaders() {
            return readers - (int) columns.stream().filter(c -> c != null).count();
        }
    }

    public record MatrixRow(String victim, List<MatrixCell> cells) {
    }

    /**
     * Tokens of one victim read by one reader: of another customer ({@code cross...}) or the same
     * ({@code same...}), delivered in responses, contained (never delivered) or whose delivery is not known yet.
     */
    public record MatrixCell(long crossDelivered, long crossContained, long crossUnknown, long sameDelivered,
            long sameContained, long sameUnknown, long possible) {
        public boolean cross() {
            return crossDelivered + crossContained + crossUnknown > 0;
        }

        public boolean same() {
            return sameDelivered + sameContained + sameUnknown > 0;
        }
    }

    /**
     * The picture of leaking responses over time (an SVG of {@code width} x {@code height}, the plot at
     * {@code left}, {@code top}), its bars, its marks, from {@code start} to {@code end} (their short labels under
     * the axis); {@code broken}: a time marked far after the leaks stands past a break at the right;
     * {@code responses} leaking responses in all, {@code delivered} of them delivered; {@code max} the tallest bar's
     * count.
     */
    public record Picture(int width, int height, int left, int top, int plotWidth, int plotHeight, int max,
            List<Bar> bars, List<Marker> markers, When start, When end, String startLabel, String endLabel,
            boolean broken, int responses, int delivered, int possible) {
        public int bottom() {
            return top + plotHeight;
        }

        public int right() {
            return left + plotWidth;
        }

        /** Where the vertical axis's labels end, their baseline at the top (the tallest bar's count) and marks. */
        public int labelX() {
            return left - 6;
        }

        public int maxY() {
            return top + 10;
        }

        public int markTop() {
            return Math.max(0, top - 8);
        }

        /** Where the break before the times marked far after the leaks is drawn. */
        public int breakX() {
            return left + plotWidth + 12;
        }

        /** The baseline of the first and last times under the axis. */
        public int dateY() {
            return top + plotHeight + 18;
        }
    }

    /** A period's bar: delivered responses (dark) under contained or unknown ones (light), its words as a title. */
    public record Bar(int x, int width, int darkY, int darkHeight, int lightY, int lightHeight, int possibleY,
            int possibleHeight, String title) {
    }

    /** A time marked on the picture ({@code kind}: first_exposure, detection, measure). */
    public record Marker(int x, String kind, String title) {
    }

    /**
     * The page's header: the soonest open deadline of any party (null: none runs), the highest severity assessed
     * (null: none), how many customers are affected, how many obligations are late.
     */
    public record Header(NextDuty next, String severity, int customers, int late) {
    }

    /** The findings' rows shown: page {@code page} of {@code pages}, rows {@code from} to {@code to}. */
    public record Evidence(int page, int pages, int from, int to) {
        public boolean hasPrevious() {
            return page > 1;
        }

        public boolean hasNext() {
            return page < pages;
        }

        public int previous() {
            return page - 1;
        }

        public int next() {
            return page + 1;
        }
    }

    /** A decision a party may record: {@code key} = tenant|decision, its words, its value if already recorded. */
    public record DecisionChoice(String key, String label) {
    }

    /** A delivery of a customer's alert that can be sent again (DEAD) or released (HELD). */
    public record Retry(long delivery, String channel, String status) {
    }

    /** A party's case; {@code severity} the level that counts for a tenant (null: not assessed; the provider). */
    public record CaseLine(String tenant, String controller, List<Duty> obligations, String severity) {
        /** {@link #tenant} as one segment of a path. */
        public String tenantParam() {
            return tenant == null ? null : IncidentPage.segment(tenant);
        }
    }

    /** A value as one segment of a URL's path: every character but the unreserved ones percent-encoded. */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
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
