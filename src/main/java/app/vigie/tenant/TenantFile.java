package app.vigie.tenant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import app.vigie.export.Csv;

/**
 * The tenant directory as a file, both ways: YAML ({@code tenants:} and a list of entries, the format of the file
 * loaded at start) and CSV (one tenant per row, lists joined with "; ", a channel as type:target). Reading keeps each
 * entry's line, and each line's problems, so that an import can show them all before anything is saved.
 */
public final class TenantFile {
    /** The CSV's columns, in order. */
    public static final List<String> COLUMNS = List.of("id", "legal_name", "country", "company_id", "dpo_name",
            "dpo_email", "dpo_phone", "alert_channels", "alert_delay", "jurisdictions", "sectors",
            "processor_is_agent", "main_establishment", "eu_representative");

    /** YAML as the directory's files are written: snake_case, an unknown field refused (the start file's too). */
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES))
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.NON_EMPTY)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private TenantFile() {
    }

    /**
     * An entry of the file: where it starts ({@code line}, from 1), the tenant read (null when unreadable), why it
     * cannot be saved, what it changes in the directory's entry ({@code changed}: the fields, empty for a new or
     * unchanged one), whether the directory had it ({@code existed}).
     */
    public record Entry(int line, Tenant tenant, List<String> problems, List<String> changed, boolean existed) {
        Entry(int line, Tenant tenant, List<String> problems) {
            this(line, tenant, problems, List.of(), false);
        }
    }

    /** The fields of an entry, as the CSV's columns name them (the DPO's three as one, {@code dpo}). */
    public static final List<String> FIELDS = List.of("legal_name", "country", "company_id", "dpo", "alert_channels",
            "alert_delay", "jurisdictions", "sectors", "processor_is_agent", "main_establishment", "eu_representative");

    /** Whether a file is CSV: by its name, else by its first line naming the id column. */
    public static boolean isCsv(String name, String text) {
        String n = name == null ? "" : name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".csv")) {
            return true;
        }
        if (n.endsWith(".yaml") || n.endsWith(".yml")) {
            return false;
        }
        return text.stripLeading().startsWith("id,") || text.stripLeading().startsWith("\"id\"");
    }

    /**
     * Reads a YAML or CSV file's entries, each with its line, its problems (none: it can be saved) and what it
     * changes in {@code directory}'s entry of that id. A YAML entry is a whole entry; a CSV row sets the columns its
     * header names and keeps the directory's values of the others (a file of ids and delays changes only delays).
     */
    public static List<Entry> read(String name, String text, Function<String, Optional<Tenant>> directory) {
        return read(name, text, directory, t -> List.of());
    }

    /** As {@link #read(String, String, Function)}, with {@code checks}' problems of each entry besides its form's. */
    public static List<Entry> read(String name, String text, Function<String, Optional<Tenant>> directory,
            Function<Tenant, List<String>> checks) {
        boolean csv = isCsv(name, text);
        List<Entry> entries = csv ? readCsv(text) : readYaml(text);
        Set<String> given = csv ? csvColumns(text) : Set.copyOf(FIELDS);
        List<Entry> out = new ArrayList<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.tenant() == null) {
                out.add(e);
                continue;
            }
            Optional<Tenant> before = e.tenant().id() == null ? Optional.empty() : directory.apply(e.tenant().id());
            Tenant t = before.map(b -> merge(b, e.tenant(), given)).orElse(e.tenant()).withDefaults();
            List<String> problems = new ArrayList<>(e.problems());
            problems.addAll(TenantValidator.problems(t));
            problems.addAll(checks.apply(t));
            Integer first = t.id() == null ? null : seen.putIfAbsent(t.id(), e.line());
            if (first != null) {
                problems.add("tenant '" + t.id() + "' is already on line " + first);
            }
            out.add(new Entry(e.line(), t, List.copyOf(problems), before.map(b -> changed(b, t)).orElse(List.of()),
                    before.isPresent()));
        }
        return out;
    }

    /** {@code read}'s entry, its fields the file does not give taken from the directory's. */
    private static Tenant merge(Tenant before, Tenant read, Set<String> given) {
        return new Tenant(read.id(), pick(given, "legal_name", read.legalName(), before.legalName()),
                pick(given, "country", read.country(), before.country()),
                pick(given, "company_id", read.companyId(), before.companyId()),
                given.contains("dpo_name") || given.contains("dpo_email") || given.contains("dpo_phone")
                        || given.contains("dpo") ? read.dpo() : before.dpo(),
                pick(given, "alert_channels", read.alertChannels(), before.alertChannels()),
                pick(given, "alert_delay", read.alertDelay(), before.alertDelay()),
                pick(given, "jurisdictions", read.jurisdictions(), before.jurisdictions()),
                pick(given, "sectors", read.sectors(), before.sectors()),
                pick(given, "processor_is_agent", read.processorIsAgent(), before.processorIsAgent()),
                pick(given, "main_establishment", read.mainEstablishment(), before.mainEstablishment()),
                pick(given, "eu_representative", read.euRepresentative(), before.euRepresentative()));
    }

    private static <T> T pick(Set<String> given, String field, T read, T before) {
        return given.contains(field) ? read : before;
    }

    /** The fields whose values differ between the directory's entry and the file's. */
    static List<String> changed(Tenant a, Tenant b) {
        Tenant x = a.withDefaults();
        Tenant y = b.withDefaults();
        List<Object> left = List.of(o(x.legalName()), o(x.country()), o(x.companyId()), o(x.dpo()),
                x.alertChannels(), o(x.alertDelay()), x.jurisdictions(), x.sectors(), x.processorIsAgent(),
                o(x.mainEstablishment()), o(x.euRepresentative()));
        List<Object> right = List.of(o(y.legalName()), o(y.country()), o(y.companyId()), o(y.dpo()),
                y.alertChannels(), o(y.alertDelay()), y.jurisdictions(), y.sectors(), y.processorIsAgent(),
                o(y.mainEstablishment()), o(y.euRepresentative()));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < FIELDS.size(); i++) {
            if (!left.get(i).equals(right.get(i))) {
                out.add(FIELDS.get(i));
            }
        }
        return out;
    }

    private static Object o(Object v) {
        return v == null ? "" : v;
    }

    /** The columns a CSV's first line names. */
    private static Set<String> csvColumns(String text) {
        List<Row> rows = rows(text);
        return rows.isEmpty() ? Set.of() : Set.copyOf(rows.get(0).cells().stream().map(String::strip).toList());
    }

    /** The directory as YAML, the format of the file loaded at start. */
    public static String yaml(List<Tenant> tenants) {
        try {
            return YAML.writeValueAsString(Map.of("tenants", tenants));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The directory as CSV, one tenant per row. */
    public static String csv(List<Tenant> tenants) {
        StringBuilder out = new StringBuilder();
        Csv.row(out, COLUMNS);
        for (Tenant t : tenants) {
            Csv.row(out, List.of(t.id(), nz(t.legalName()), nz(t.country()), nz(t.companyId()),
                    t.dpo() == null ? "" : nz(t.dpo().name()), t.dpo() == null ? "" : nz(t.dpo().email()),
                    t.dpo() == null ? "" : nz(t.dpo().phone()), t.alertChannels() == null ? ""
                            : String.join("; ", t.alertChannels().stream().map(c -> c.type() + ":" + c.target())
                                    .toList()),
                    nz(t.alertDelay()), t.jurisdictions() == null ? "" : String.join("; ", t.jurisdictions()),
                    t.sectors() == null ? "" : String.join("; ", t.sectors()),
                    Boolean.TRUE.equals(t.processorIsAgent()) ? "true" : "", nz(t.mainEstablishment()),
                    nz(t.euRepresentative())));
        }
        return out.toString();
    }

    private static List<Entry> readYaml(String text) {
        List<Entry> out = new ArrayList<>();
        try (JsonParser p = YAML.getFactory().createParser(text)) {
            p.setCodec(YAML);
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return List.of(new Entry(1, null, List.of("expected 'tenants:' and a list of tenants")));
            }
            boolean found = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                int line = p.currentTokenLocation().getLineNr();
                JsonToken value = p.nextToken();
                if (!"tenants".equals(field)) {
                    out.add(new Entry(line, null, List.of("unknown field '" + field + "': the file holds "
                            + "'tenants:' only")));
                    p.skipChildren();
                    continue;
                }
                found = true;
                if (value != JsonToken.START_ARRAY) {
                    out.add(new Entry(line, null, List.of("'tenants:' must be a list of tenants")));
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    int at = p.currentTokenLocation().getLineNr();
                    JsonNode node = p.readValueAsTree();
                    try {
                        Tenant t = YAML.treeToValue(node, Tenant.class);
                        out.add(t == null ? new Entry(at, null, List.of("empty entry")) : new Entry(at, t, List.of()));
                    } catch (JsonProcessingException e) {
                        out.add(new Entry(at, null, List.of(e.getOriginalMessage().lines().findFirst()
                                .orElse("unreadable entry"))));
                    }
                }
            }
            if (!found && out.isEmpty()) {
                out.add(new Entry(1, null, List.of("expected 'tenants:' and a list of tenants")));
            }
        } catch (JsonProcessingException e) {
            out.add(new Entry(e.getLocation() == null ? 1 : e.getLocation().getLineNr(), null,
                    List.of("not YAML: " + e.getOriginalMessage().lines().findFirst().orElse("unreadable"))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static List<Entry> readCsv(String text) {
        List<Entry> out = new ArrayList<>();
        List<Row> rows = rows(text);
        if (rows.isEmpty()) {
            return List.of(new Entry(1, null, List.of("the file is empty: its first line names the columns, "
                    + String.join(",", COLUMNS))));
        }
        List<String> header = rows.get(0).cells().stream().map(String::strip).toList();
        List<String> unknown = header.stream().filter(h -> !COLUMNS.contains(h)).toList();
        if (!header.contains("id") || !unknown.isEmpty()) {
            return List.of(new Entry(1, null, List.of("the first line names the columns, from "
                    + String.join(",", COLUMNS) + (unknown.isEmpty() ? "; 'id' is required" : "; unknown: "
                            + String.join(", ", unknown)))));
        }
        for (Row r : rows.subList(1, rows.size())) {
            if (r.cells().stream().allMatch(String::isBlank)) {
                continue;
            }
            if (r.cells().size() != header.size()) {
                out.add(new Entry(r.line(), null, List.of("expected " + header.size() + " cells, found "
                        + r.cells().size())));
                continue;
            }
            Map<String, String> v = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                // the id as written, spaces around it too: the validator refuses them with a reason rather than
                // this import making 'acme ' into 'acme' (another tenant's id) unseen
                String cell = r.cells().get(i);
                v.put(header.get(i), unquoteFormula(header.get(i).equals("id") && !cell.isBlank() ? cell
                        : cell.strip()));
            }
            List<String> problems = new ArrayList<>();
            List<Tenant.AlertChannel> channels = new ArrayList<>();
            for (String c : list(v.get("alert_channels"))) {
                int colon = c.indexOf(':');
                if (colon <= 0) {
                    problems.add("alert channel '" + c + "' is not type:target (email:dpo@example.fr)");
                } else {
                    channels.add(new Tenant.AlertChannel(c.substring(0, colon).strip(), c.substring(colon + 1)
                            .strip()));
                }
            }
            String agent = blank(v.get("processor_is_agent"));
            if (agent != null && !agent.equals("true") && !agent.equals("false")) {
                problems.add("processor_is_agent must be true, false or empty, got '" + agent + "'");
            }
            Tenant.Dpo dpo = blank(v.get("dpo_name")) == null && blank(v.get("dpo_email")) == null
                    && blank(v.get("dpo_phone")) == null ? null
                    : new Tenant.Dpo(blank(v.get("dpo_name")), blank(v.get("dpo_email")), blank(v.get("dpo_phone")));
            out.add(new Entry(r.line(), new Tenant(blank(v.get("id")), blank(v.get("legal_name")),
                    blank(v.get("country")), blank(v.get("company_id")), dpo, channels, blank(v.get("alert_delay")),
                    list(v.get("jurisdictions")), list(v.get("sectors")), "true".equals(agent),
                    blank(v.get("main_establishment")), blank(v.get("eu_representative"))), problems));
        }
        return out;
    }

    /** A row of the CSV and the line it starts on (a quoted cell may hold line breaks). */
    private record Row(int line, List<String> cells) {
    }

    /**
     * RFC 4180: cells split on commas, quoted cells with doubled quotes and line breaks inside. A first line with
     * semicolons and no comma (a spreadsheet set for French saves so) splits on semicolons.
     */
    private static List<Row> rows(String text) {
        String firstLine = text.lines().findFirst().orElse("");
        char separator = firstLine.indexOf(',') < 0 && firstLine.indexOf(';') >= 0 ? ';' : ',';
        List<Row> out = new ArrayList<>();
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        int line = 1;
        int start = 1;
        String s = text.startsWith("\uFEFF") ? text.substring(1) : text;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < s.length() && s.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    if (c == '\n') {
                        line++;
                    }
                    cell.append(c);
                }
            } else if (c == '"' && cell.isEmpty()) {
                quoted = true;
            } else if (c == separator) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                    i++;
                }
                cells.add(cell.toString());
                cell.setLength(0);
                out.add(new Row(start, List.copyOf(cells)));
                cells.clear();
                line++;
                start = line;
            } else {
                cell.append(c);
            }
        }
        if (!cell.isEmpty() || !cells.isEmpty()) {
            cells.add(cell.toString());
            out.add(new Row(start, List.copyOf(cells)));
        }
        return out;
    }

    /** A cell exported with a quote before = + - @ (so that a spreadsheet does not read a formula) read back. */
    private static String unquoteFormula(String v) {
        return v.length() > 1 && v.charAt(0) == '\'' && "=+-@\t\r".indexOf(v.charAt(1)) >= 0 ? v.substring(1) : v;
    }

    private static List<String> list(String v) {
        return v == null || v.isBlank() ? List.of()
                : Arrays.stream(v.split(";")).map(String::strip).filter(x -> !x.isEmpty()).toList();
    }

    private static String blank(String v) {
        return v == null || v.isBlank() ? null : v;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
