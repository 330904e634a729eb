package app.vigie.notice;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import app.vigie.export.Csv;

/**
 * A processor alert's long lists of requests: each list longer than {@link ProcessorAlert#ANNEX_OVER} as an annex in
 * the document's language (words of group {@code annex} in templates/notices/words.yaml), and both lists whole as
 * the CSV file {@value #CSV} attached to the PDF (the same values as the JSON's {@code exposed} and
 * {@code received}, times in UTC).
 */
public final class ProcessorAlertAnnexes {
    /** The attached file's name. */
    public static final String CSV = "requests.csv";

    private ProcessorAlertAnnexes() {
    }

    /** The annexes of the alert (none when every list fits in the body). */
    public static List<PdfAnnex> annexes(ProcessorAlert a, Words words) {
        String lang = a.language();
        // one line a request: the time as digits with its offset (unambiguous across a change of time), the zone
        // named in the heading
        DateTimeFormatter time = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx")
                .withZone(ZoneId.of(a.zone()));
        List<PdfAnnex> out = new ArrayList<>();
        if (a.exposedAnnexed()) {
            List<List<String>> rows = new ArrayList<>(a.exposed().size());
            for (ProcessorAlert.RequestLine l : a.exposed()) {
                rows.add(List.of(l.request(), Long.toString(l.tokens()), time(time, l),
                        Integer.toString(l.otherRequests()), words.of(lang, "annex", l.sameTenant() ? "YES" : "NO"),
                        Integer.toString(l.delivered()), Integer.toString(l.undetermined())));
            }
            out.add(new PdfAnnex("annex-exposed", words.of(lang, "annex", "EXPOSED"), List.of(
                    column(words, a, "REQUEST", 29, false), column(words, a, "TOKENS_EXPOSED", 9, true),
                    column(words, a, "FIRST_EXPOSURE", 24, false), column(words, a, "READ_BY", 10, true),
                    column(words, a, "OWN_ACCOUNT", 9, false), column(words, a, "LEFT", 10, true),
                    column(words, a, "NOT_KNOWN", 9, true)), rows));
        }
        if (a.receivedAnnexed()) {
            List<List<String>> rows = new ArrayList<>(a.received().size());
            for (ProcessorAlert.RequestLine l : a.received()) {
                rows.add(List.of(l.request(), Long.toString(l.tokens()), time(time, l),
                        Integer.toString(l.otherRequests()), words.of(lang, "annex", l.delivered() > 0 ? "YES"
                                : l.undetermined() > 0 ? "NOT_KNOWN_YET" : "NO")));
            }
            out.add(new PdfAnnex("annex-received", words.of(lang, "annex", "RECEIVED"), List.of(
                    column(words, a, "REQUEST", 32, false), column(words, a, "TOKENS_RECEIVED", 11, true),
                    column(words, a, "FIRST_READ", 24, false), column(words, a, "SOURCES", 11, true),
                    column(words, a, "RESPONSE_LEFT", 22, false)), rows));
        }
        return out;
    }

    /** A column headed in the alert's language ({zone} in the words: the alert's time zone). */
    private static PdfAnnex.Column column(Words words, ProcessorAlert a, String code, float share, boolean number) {
        return new PdfAnnex.Column(words.of(a.language(), "annex", code).replace("{zone}", a.zone()), share,
                number);
    }

    private static String time(DateTimeFormatter format, ProcessorAlert.RequestLine l) {
        return l.firstSeenAt().utc() == null ? "" : format.format(l.firstSeenAt().utc());
    }

    /**
     * Both lists whole as CSV (attached when one of them is annexed): the JSON's field names, one line per request
     * and list ({@code exposed} or {@code received}).
     */
    public static PdfRenderer.Attachment csv(ProcessorAlert a, Words words) {
        StringBuilder out = new StringBuilder(96 * (a.exposed().size() + a.received().size() + 1));
        Csv.row(out, List.of("list", "request", "tokens", "first_seen_at", "other_requests", "same_tenant",
                "delivered", "undetermined"));
        for (ProcessorAlert.RequestLine l : a.exposed()) {
            row(out, "exposed", l);
        }
        for (ProcessorAlert.RequestLine l : a.received()) {
            row(out, "received", l);
        }
        return new PdfRenderer.Attachment(CSV, words.of(a.language(), "annex", "CSV"), "text/csv",
                out.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void row(StringBuilder out, String list, ProcessorAlert.RequestLine l) {
        Csv.row(out, List.of(list, l.request(), Long.toString(l.tokens()),
                l.firstSeenAt().utc() == null ? "" : l.firstSeenAt().utc().toString(),
                Integer.toString(l.otherRequests()), Boolean.toString(l.sameTenant()), Integer.toString(l.delivered()),
                Integer.toString(l.undetermined())));
    }
}
