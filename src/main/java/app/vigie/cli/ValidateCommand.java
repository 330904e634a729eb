package app.vigie.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.LineSplitter;
import app.vigie.auditlog.intake.Source;
import app.vigie.compliance.rules.InvalidRules;
import app.vigie.json.JsonConfig;
import app.vigie.rootcause.core.HintCatalogue;
import app.vigie.rootcause.core.HintLoader;
import app.vigie.rootcause.core.HintMatcher;

/**
 * {@code validate [--json] [--limit N] LOG...}: judges page audit logs (NDJSON, gzip or not; {@code -} reads the
 * standard input) as the service would, with no service, no database, nothing stored ({@link LogValidator}). The
 * files are read in the order given, as one log. Prints a report (text, or JSON with {@code --json}) and exits 0 when
 * the log conforms and nothing is found, 1 when it conforms and the detectors found something (a leak or a fault of
 * the engine), 2 when it does not conform (a line the service would reject, a conflicting duplicate, a missing seq, an
 * impossible record), 3 when it could not be read (usage, a missing file). docs/integrating-an-engine.md.
 */
public final class ValidateCommand {
    /** Exit status when the command could not run: bad usage, a file that cannot be read. */
    public static final int CANNOT_RUN = 3;
    private static final int DEFAULT_LIMIT = 50;
    private static final int BUFFER = 1 << 20;

    private ValidateCommand() {
    }

    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        boolean json = false;
        int limit = DEFAULT_LIMIT;
        Optional<String> rootCauses = Optional.empty();
        List<String> logs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--json" -> json = true;
                case "--limit" -> {
                    if (i + 1 >= args.length || !args[i + 1].matches("\\d{1,9}")) {
                        return usage(err, "--limit takes a number of lines (0: none listed)");
                    }
                    limit = Integer.parseInt(args[++i]);
                }
                case "--root-causes" -> {
                    if (i + 1 >= args.length) {
                        return usage(err, "--root-causes takes a file (root-causes/root-causes.yaml's format)");
                    }
                    rootCauses = Optional.of(args[++i]);
                }
                case "-h", "--help" -> {
                    usage(out, null);
                    return 0;
                }
                default -> {
                    if (args[i].startsWith("--")) {
                        return usage(err, "unknown option " + args[i]);
                    }
                    logs.add(args[i]);
                }
            }
        }
        if (logs.isEmpty()) {
            return usage(err, "no log given");
        }
        HintCatalogue catalogue;
        try {
            catalogue = HintLoader.resolve(rootCauses).catalogue();
        } catch (InvalidRules e) {
            err.println("validate: root-cause hints refused: " + e.getMessage());
            return CANNOT_RUN;
        }
        LogValidator validator = new LogValidator();
        for (String log : logs) {
            try (InputStream in = open(log, stdin)) {
                read(in, log.equals("-") ? "stdin" : log, validator);
            } catch (NoSuchFileException e) {
                err.println(log + ": no such file");
                return CANNOT_RUN;
            } catch (IOException e) {
                err.println(log + ": cannot read: " + e.getMessage());
                return CANNOT_RUN;
            }
        }
        LogValidator.Report report = validator.finish();
        HintMatcher.Result causes = causes(report, catalogue);
        if (json) {
            out.println(json(report, causes, catalogue.version()));
        } else {
            text(report, causes, catalogue.version(), logs, limit, out);
        }
        return report.exitCode();
    }

    private static int usage(PrintStream to, String problem) {
        if (problem != null) {
            to.println("validate: " + problem);
        }
        to.println("usage: validate [--json] [--limit N] [--root-causes FILE] LOG...   (NDJSON page audit logs, gzip or"
                + " not; - for stdin)");
        to.println("exit: 0 conforms, nothing found; 1 conforms, findings; 2 does not conform; 3 cannot run");
        return problem == null ? 0 : CANNOT_RUN;
    }

    private static InputStream open(String log, InputStream stdin) throws IOException {
        InputStream raw = log.equals("-") ? stdin : Files.newInputStream(Path.of(log));
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
        in.mark(2);
        boolean gzip = in.read() == 0x1f && in.read() == 0x8b;
        in.reset();
        return gzip ? new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16) : in;
    }

    /**
     * Feeds the lines of {@code in} to the validator, numbered from 1, split as the intake splits a body (a
     * trailing CR dropped, blank lines skipped but counted), one block of whole lines at a time.
     */
    static void read(InputStream in, String name, LogValidator validator) throws IOException {
        byte[] buf = new byte[BUFFER];
        int filled = 0;
        long nextLine = 1;
        while (true) {
            if (filled == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);  // a line longer than the buffer: the parser says how long
            }
            int n = in.read(buf, filled, buf.length - filled);
            boolean eof = n < 0;
            if (!eof) {
                filled += n;
            }
            int end = eof ? filled : lastNewline(buf, filled) + 1;
            if (end > 0) {
                // the validator keeps nothing of the lines' bytes: the buffer is reused
                LineSplitter.Split split = LineSplitter.split(buf, end, Source.FILE, name, nextLine, false);
                for (IncomingLine l : split.lines()) {
                    validator.line(l);
                }
                nextLine += split.lines().size() + split.blank();
                System.arraycopy(buf, end, buf, 0, filled - end);
                filled -= end;
            }
            if (eof) {
                return;
            }
        }
    }

    private static int lastNewline(byte[] b, int length) {
        for (int i = length - 1; i >= 0; i--) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The known causes the findings match, per subject (a request id, or stream@boot), as the service matches them. */
    public static HintMatcher.Result causes(LogValidator.Report r, HintCatalogue catalogue) {
        Map<String, Map<String, Instant>> bySubject = new TreeMap<>();
        r.findings().forEach(f -> bySubject.computeIfAbsent(f.subject(), k -> new HashMap<>())
                .merge(f.rule(), f.at(), (a, b) -> a.isBefore(b) ? a : b));
        return new HintMatcher(catalogue).result(tally -> bySubject.forEach(tally::subject));
    }

    static String json(LogValidator.Report r, HintMatcher.Result causes, String version) {
        ObjectMapper mapper = JsonConfig.standalone();
        try {
            ObjectNode node = mapper.valueToTree(r);
            node.put("conforms", r.conforms()).put("exit", r.exitCode());
            ObjectNode c = node.putObject("causes").put("catalogue_version", version);
            ArrayNode matched = c.putArray("matched");
            for (HintMatcher.Match m : causes.matches()) {
                ObjectNode h = matched.addObject().put("hint", m.hint().id()).put("name", m.hint().name().get("en"))
                        .put("subjects", m.subjects());
                ObjectNode f = h.putObject("findings");
                m.findings().forEach((rule, n) -> f.put(rule.name(), n));
                ArrayNode ex = h.putArray("first_subjects");
                m.examples().forEach(e -> ex.add(e.subject()));
            }
            ObjectNode un = c.putObject("unaccounted");
            causes.unaccounted().forEach(un::put);
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void text(LogValidator.Report r, HintMatcher.Result causes, String version, List<String> logs,
            int limit, PrintStream out) {
        out.printf(Locale.ROOT, "%d log(s), %,d lines, %,d records (%,d duplicates), %d stream(s)%n", logs.size(),
                r.lines(), r.records(), r.duplicates(), r.streams().size());
        if (r.conforms()) {
            out.println("conforms: yes");
        } else {
            out.printf(Locale.ROOT, "conforms: no, %,d problem(s)%n", r.problems().size());
            r.problems().stream().limit(limit).forEach(p -> out.printf(Locale.ROOT, "  %s:%d %s%s: %s%n",
                    p.source(), p.line(), p.kind(), p.stream() == null ? ""
                            : " (" + p.stream() + " boot " + p.boot() + " seq " + p.seq() + ")", p.message()));
            more(out, r.problems().size(), limit);
        }
        if (r.findings().isEmpty()) {
            out.println("findings: none");
        } else {
            out.printf(Locale.ROOT, "findings: %,d (%s)%n", r.findings().size(), r.findingCounts().toString()
                    .replaceAll("[{}]", ""));
            r.findings().stream().limit(limit).forEach(f -> out.printf(Locale.ROOT,
                    "  %s %s %s (%s boot %s seq %d-%d): %s%n", f.rule(), f.deployment(), f.subject(), f.stream(),
                    f.boot(), f.firstSeq(), f.lastSeq(), f.detail()));
            more(out, r.findings().size(), limit);
        }
        // certain exposures are counted; possible ones (spec 1.3, amendment 3: content overwritten in flight) apart
        long possible = r.exposures().stream().filter(LogValidator.ExposureLine::possible).count();
        long cross = r.exposures().stream().filter(e -> !e.possible() && e.kind().equals("CROSS_TENANT")).count();
        long leaked = r.exposures().stream().filter(e -> !e.possible() && e.kind().equals("CROSS_TENANT")
                && Boolean.TRUE.equals(e.delivered())).map(LogValidator.ExposureLine::readerRequest).distinct()
                .count();
        out.printf(Locale.ROOT, "exposures: %,d cross-tenant, %,d intra-tenant; %,d response(s) delivered with"
                + " another tenant's tokens%s%n", cross, r.exposures().size() - possible - cross, leaked,
                possible == 0 ? "" : String.format(Locale.ROOT, "; %,d possible (what was read may have been"
                        + " overwritten while a transfer read it)", possible));
        r.exposures().stream().limit(limit).forEach(e -> out.printf(Locale.ROOT,
                "  %s %s/%s read %d token(s) of %s/%s%s%s%n", e.kind(), e.readerTenant(), e.readerRequest(),
                e.tokens(), e.victimTenant(), e.victimRequest(), Boolean.TRUE.equals(e.delivered()) ? ", delivered" : "",
                e.possible() ? " (possible)" : ""));
        more(out, r.exposures().size(), limit);
        if (!r.findings().isEmpty()) {
            out.printf(Locale.ROOT, "probable causes (root-causes/ version %s: hints, not proof; docs/root-causes.md):%n",
                    version);
            if (causes.matches().isEmpty()) {
                out.println("  none of the known runtime faults matches these findings");
            }
            causes.matches().forEach(m -> out.printf(Locale.ROOT, "  %s: %s. %,d subject(s), %s; first %s%n",
                    m.hint().id(), m.hint().name().get("en"), m.subjects(), m.findings().toString()
                            .replaceAll("[{}]", ""), String.join(", ", m.examples().stream()
                                    .map(HintMatcher.Example::subject).toList())));
            if (!causes.unaccounted().isEmpty()) {
                out.printf(Locale.ROOT, "  findings no known cause accounts for: %s%n", causes.unaccounted().toString()
                        .replaceAll("[{}]", ""));
            }
        }
        out.println(switch (r.exitCode()) {
            case 0 -> "exit 0: the log conforms and nothing was found";
            case 1 -> "exit 1: the log conforms; the detectors found what is listed above";
            default -> "exit 2: the log does not conform to the page audit log specification (docs/page-audit-log.md)";
        });
    }

    private static void more(PrintStream out, int total, int limit) {
        if (total > limit) {
            out.printf(Locale.ROOT, "  ... and %,d more (--limit N, or --json for all)%n", total - limit);
        }
    }
}
