package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.compliance.rules.Authorities;
import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.rules.Regime;
import app.vigie.compliance.rules.RuleLoader;
import app.vigie.compliance.rules.RuleSet;
import app.vigie.testing.Api;
import app.vigie.testing.MovableClock;
import app.vigie.testing.PdfChecks;

/**
 * Every kind of document, for a full incident and a minimal one, in French and in English: a French document holds
 * no word that only the English wording uses (templates, words.yaml, authorities' names, legal citations), an
 * English one no word only the French wording uses, neither shows a code (NOT_REQUIRED, CROSS_TENANT_READ), and
 * every request id reads back exactly from the PDF (pdftotext), however narrow its column.
 */
@QuarkusTest
class DocumentLanguageTest {
    private static final String JSON = "application/json";
    private static final Pattern WORD = Pattern.compile("\\p{L}{3,}");
    private static final Pattern CODE = Pattern.compile("\\b[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\\b");
    private static final Pattern EXPRESSION = Pattern.compile("\\{[^{}]*\\}");
    private static final Pattern LITERAL = Pattern.compile("\"([^\"]*)\"");

    @AfterEach
    void resetClock() {
        MovableClock.INSTANCE.reset();
    }

    @Test
    void documentsAreWrittenInOneLanguageAndReadBackTheirIds() throws Exception {
        String p = "mistral-24b-instruct-2507-" + Api.uniquePrefix().substring(2) + "-";
        String zeta = p + "zeta";
        String omega = p + "omega";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Zeta SA\",\"country\":\"FR\",\"company_id\":\"775 664 887\","
                + "\"dpo\":{\"name\":\"Zoe Marx\",\"email\":\"dpo@zeta.example\",\"phone\":\"+33 1 23 45 67 89\"},"
                + "\"sectors\":[\"financial\"]}").put("/api/tenants/" + zeta).then().statusCode(200);
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Omega SA\",\"country\":\"FR\"}")
                .put("/api/tenants/" + omega).then().statusCode(200);
        String id = Api.leakingIncident(p, zeta, omega);
        String incident = "/api/incidents/" + id;
        Instant detected = Instant.parse(Api.admin().get(incident).then().extract().jsonPath()
                .getString("detected_at"));
        MovableClock.INSTANCE.set(detected.plus(Duration.ofHours(3)));
        Api.admin().contentType(JSON).body("{\"aware_at\":\"" + detected.plus(Duration.ofHours(1))
                + "\",\"evidence\":\"KV-9\"}").put(incident + "/tenants/" + zeta + "/awareness").then()
                .statusCode(200);
        Api.admin().contentType(JSON).body("{\"inputs\":{\"category\":\"sensitive\",\"adjustment\":0,\"ei\":"
                + "\"maximum\",\"confidentiality\":\"unknown_recipients\",\"integrity\":\"none\",\"availability\":"
                + "\"none\"}}").put(incident + "/tenants/" + zeta + "/severity").then().statusCode(200);
        Api.admin().contentType(JSON).body("{\"value\":true,\"justification\":\"KV-9\"}")
                .put(incident + "/tenants/" + zeta + "/decisions/major").then().statusCode(200);
        Api.admin().contentType(JSON).body("{\"text\":\"KV-9\"}").post(incident + "/measures").then()
                .statusCode(201);
        Api.admin().contentType(JSON).body("{\"data_categories\":[\"KV-9\"],\"special_categories\":[\"health\","
                + "\"criminal_convictions\"],\"approximate_records\":12,\"person_categories\":[\"KV-9\"],"
                + "\"approximate_persons\":4,\"likely_consequences\":\"KV-9\",\"security_measures_before\":\"KV-9\","
                + "\"measures_proposed\":\"KV-9\",\"persons_informed\":\"PLANNED\",\"persons_informed_at\":\""
                + detected.plus(Duration.ofDays(2)) + "\",\"sector\":\"KV-9\",\"address\":\"KV-9\","
                + "\"data_unintelligible\":\"NO\",\"contact_name\":\"Zoe Marx\",\"contact_email\":\"soc@zeta.example\"}")
                .put(incident + "/tenants/" + zeta + "/statements").then().statusCode(200);
        Api.admin().contentType(JSON).body("{\"done_at\":\"" + detected.plus(Duration.ofHours(2))
                + "\",\"evidence\":\"KV-9\"}").post(incident + "/tenants/" + zeta
                        + "/obligations/dora-19-initial/financial_authority:FR/completions").then().statusCode(201);
        Api.admin().post(incident + "/tenants/" + zeta + "/documents/authority-notification/versions?lang=fr")
                .then().statusCode(201);
        Api.admin().contentType(JSON).body("{\"incident_id\":\"" + id + "\",\"tenant\":\"" + zeta + "\"}")
                .post("/api/register").then().statusCode(201);

        String q = Api.uniquePrefix() + "-";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Delta SARL\",\"country\":\"TN\"}")
                .put("/api/tenants/" + q + "delta").then().statusCode(200);
        String minimal = Api.leakingIncident(q, q + "gamma", q + "delta");
        // a Tunisian controller is told what Organic Law 2004-63 does not require and what may still apply
        assertThat(html("/api/incidents/" + minimal + "/tenants/" + q + "delta/documents/processor-alert.html?lang=fr"))
                .contains("La loi organique 2004-63 ne prévoit aucune obligation").contains("décret-loi 2023-17")
                .doesNotContain("Aucune obligation ne découle");
        assertThat(html("/api/incidents/" + minimal + "/tenants/" + q + "delta/documents/processor-alert.html?lang=en"))
                .contains("Organic Law 2004-63 sets no duty").contains("Decree-law 2023-17");

        Set<String> data = tokens(String.join(" ", List.of(p, q, "Zeta SA", "Omega SA", "Zoe Marx",
                "dpo@zeta.example", "soc@zeta.example", "KV-9", "Nuvola SAS", "soc@nuvola.example", "dep", "Delta SARL")));
        Map<String, Set<String>> only = onlyIn();
        List<String> problems = new ArrayList<>();
        for (String lang : List.of("fr", "en")) {
            Set<String> foreign = only.get(lang.equals("fr") ? "en" : "fr");
            for (String doc : List.of("processor-alert", "authority-notification", "data-subject-communication")) {
                for (String tenant : List.of(zeta, omega)) {
                    check(problems, doc + " " + tenant + " " + lang, html(incident + "/tenants/" + tenant
                            + "/documents/" + doc + ".html?lang=" + lang), foreign, data);
                }
                check(problems, doc + " unmapped " + lang, html("/api/incidents/" + minimal + "/tenants/" + q
                        + "gamma/documents/" + doc + ".html?lang=" + lang), foreign, data);
                check(problems, doc + " Tunisian " + lang, html("/api/incidents/" + minimal + "/tenants/" + q
                        + "delta/documents/" + doc + ".html?lang=" + lang), foreign, data);
            }
            check(problems, "incident-report " + lang, html(incident + "/documents/incident-report.html?lang="
                    + lang), foreign, data);
            check(problems, "incident-report minimal " + lang, html("/api/incidents/" + minimal
                    + "/documents/incident-report.html?lang=" + lang), foreign, data);
            byte[] register = Api.admin().get("/api/register/export.pdf?register=" + zeta + "&lang=" + lang).then()
                    .statusCode(200).extract().asByteArray();
            check(problems, "register " + lang, PdfChecks.text(register), foreign, data);
            // GDPR Art. 10 data (criminal convictions and offences) are not a special category of Art. 9
            PdfChecks.render(register, "register-special-categories-" + lang);
            String registerText = PdfChecks.text(register).replaceAll("\\s+", " ");
            assertThat(registerText).as("register " + lang).contains(lang.equals("fr")
                    ? "catégories particulières (art. 9) : santé ; données relatives aux condamnations pénales et aux"
                            + " infractions (art. 10)"
                    : "special categories (Art. 9): health; personal data relating to criminal convictions and offences"
                            + " (Art. 10)").doesNotContain("9 et 10", "9, 10");
        }
        assertThat(problems).isEmpty();

        // request ids read back exactly from the PDF: never hyphenated or broken in their narrow column
        for (String tenant : List.of(zeta, omega)) {
            for (String lang : List.of("fr", "en")) {
                byte[] pdf = Api.admin().get(incident + "/tenants/" + tenant + "/documents/processor-alert.pdf?lang="
                        + lang).then().statusCode(200).extract().asByteArray();
                String text = PdfChecks.text(pdf);
                PdfChecks.render(pdf, "processor-alert-long-ids-" + (tenant.equals(zeta) ? "victim" : "recipient")
                        + "-" + lang);
                String request = tenant.equals(zeta) ? p + "a" : p + "b";
                assertThat(text).as("%s %s reads back %s", tenant, lang, request).contains(request);
            }
        }
    }

    /** Strips a page to its text, checks it for words of the other language and for codes. */
    private static void check(List<String> problems, String what, String text, Set<String> foreign,
            Set<String> data) {
        String plain = text.replaceAll("(?s)<style.*?</style>", " ").replaceAll("<[^>]+>", " ")
                .replace("&amp;", "&").replace("&#39;", "'").replace("&apos;", "'").replace("&quot;", "\"")
                .replace("&lt;", "<").replace("&gt;", ">").replace("&nbsp;", " ");
        Set<String> found = new TreeSet<>(tokens(plain));
        found.retainAll(foreign);
        found.removeAll(data);
        if (!found.isEmpty()) {
            problems.add(what + ": words of the other language " + found + context(plain, found));
        }
        Matcher m = CODE.matcher(plain);
        while (m.find()) {
            problems.add(what + ": a code is shown: " + m.group());
        }
    }

    private static String context(String plain, Set<String> words) {
        StringBuilder out = new StringBuilder();
        for (String w : words) {
            Matcher m = Pattern.compile("(?iu)\\b" + Pattern.quote(w) + "\\b").matcher(plain);
            if (m.find()) {
                int from = Math.max(0, m.start() - 60);
                out.append("\n    … ").append(plain.substring(from, Math.min(plain.length(), m.end() + 60))
                        .replaceAll("\\s+", " ")).append(" …");
            }
        }
        return out.toString();
    }

    private static String html(String path) {
        return Api.admin().get(path).then().statusCode(200).extract().asString();
    }

    /** The words each language's wording uses and the other's does not. */
    static Map<String, Set<String>> onlyIn() throws IOException {
        Set<String> en = vocabulary("en");
        Set<String> fr = vocabulary("fr");
        Set<String> enOnly = new HashSet<>(en);
        enOnly.removeAll(fr);
        Set<String> frOnly = new HashSet<>(fr);
        frOnly.removeAll(en);
        assertThat(enOnly).as("the English wording is read").contains("the", "controller", "breach");
        assertThat(frOnly).as("the French wording is read").contains("les", "responsable", "violation");
        return Map.of("en", enOnly, "fr", frOnly);
    }

    /** Every word of a language's wording: its templates' text, words.yaml, authorities' names, citations. */
    @SuppressWarnings("unchecked")
    static Set<String> vocabulary(String lang) throws IOException {
        Set<String> out = new HashSet<>();
        try (Stream<Path> files = Files.list(Path.of("templates/notices"))) {
            for (Path f : files.filter(x -> x.toString().endsWith("." + lang + ".html")).toList()) {
                String t = Files.readString(f).replaceAll("(?s)\\{!.*?!\\}", " ");
                StringBuilder literals = new StringBuilder();
                Matcher e = EXPRESSION.matcher(t);
                while (e.find()) {
                    Matcher l = LITERAL.matcher(e.group());
                    while (l.find()) {
                        literals.append(' ').append(l.group(1));
                    }
                }
                out.addAll(tokens(EXPRESSION.matcher(t).replaceAll(" ").replaceAll("<[^>]+>", " ") + literals));
            }
        }
        Map<String, Map<String, Map<String, String>>> words = new Yaml().load(
                Files.readString(Path.of("templates/notices/words.yaml")));
        words.get(lang).values().forEach(g -> g.values().forEach(w -> out.addAll(tokens(w))));
        RuleSet rules = RuleLoader.load(Path.of("compliance-rules"));
        Authorities a = rules.authorities();
        a.byKind().values().forEach(m -> m.values().forEach(x -> out.addAll(tokens(x.name(lang)))));
        a.named().values().forEach(x -> out.addAll(tokens(x.name(lang))));
        for (Regime g : rules.regimes()) {
            for (ObligationRule r : g.obligations()) {
                out.addAll(tokens(r.sources().get(lang)));
            }
        }
        return out;
    }

    static Set<String> tokens(String text) {
        Set<String> out = new HashSet<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
