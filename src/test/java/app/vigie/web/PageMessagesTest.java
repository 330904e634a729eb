package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.qute.i18n.Localized;
import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.alert.web.TestAlertMessages;
import app.vigie.detection.core.Rule;
import app.vigie.incident.IncidentStatus;
import app.vigie.settings.web.SettingsMessages;
import app.vigie.web.pages.CockpitMessages;
import app.vigie.web.pages.CodeMessages;
import app.vigie.web.pages.CodeWords;
import app.vigie.web.pages.PageMessages;
import app.vigie.web.pages.PageWords;

/**
 * The pages speak through the message bundle: no template tests the language itself, every English message has its
 * French one, a page's own words are its own, and the bundle gives each language its words (spaces of French
 * typography kept).
 */
@QuarkusTest
class PageMessagesTest {
    private static final Pattern KEY = Pattern.compile("\\{msg:(\\w+)");
    private static final Pattern CALL = Pattern.compile("\\.(\\w+)\\(");

    @Inject
    @Localized("fr")
    PageMessages fr;

    @Inject
    @Localized("en")
    PageMessages en;

    @Test
    void noPageSpellsALanguageInline() throws IOException {
        List<String> inline = new ArrayList<>();
        try (Stream<Path> pages = Files.list(Path.of("templates/pages"))) {
            for (Path p : pages.filter(x -> x.toString().endsWith(".html")).toList()) {
                String s = Files.readString(p);
                if (s.contains("== 'fr'") || s.contains("== 'en'")) {
                    inline.add(p.getFileName().toString());
                }
            }
        }
        assertThat(inline).as("templates choosing words by testing the language").isEmpty();
    }

    @Test
    void everyMessageUsedExistsInBothLanguages() throws IOException {
        Map<String, String> english = read("msg_en.properties");
        Map<String, String> french = read("msg_fr.properties");
        assertThat(french.keySet()).as("French keys").containsExactlyInAnyOrderElementsOf(english.keySet());
        List<String> used = new ArrayList<>();
        try (Stream<Path> pages = Files.list(Path.of("templates/pages"))) {
            for (Path p : pages.toList()) {
                for (Matcher m = KEY.matcher(Files.readString(p)); m.find();) {
                    used.add(m.group(1));
                }
            }
        }
        assertThat(used).hasSizeGreaterThan(200);
        assertThat(english.keySet()).containsAll(used);
        // and the words the pages' Java composes (errors, labels), called on the bundle by name
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java/app/vigie"))) {
            for (Path p : sources.filter(PageMessagesTest::pageJava).toList()) {
                for (Matcher m = CALL.matcher(Files.readString(p)); m.find();) {
                    if (english.containsKey(m.group(1))) {
                        used.add(m.group(1));
                    }
                }
            }
        }
        assertThat(used).as("every message is used").containsAll(english.keySet());
    }

    /**
     * A key named after a page (alerts_, incident_, portal_incident_, ...) belongs to that page: a word several pages
     * share is common_, severity_ or nav_, so that changing one page's word does not change another's.
     */
    @Test
    void aPagesOwnWordsAreUsedByThatPageOnly() throws IOException {
        List<Path> templates;
        try (Stream<Path> pages = Files.list(Path.of("templates/pages"))) {
            templates = pages.filter(x -> x.toString().endsWith(".html")).sorted().toList();
        }
        List<String> prefixes = templates.stream().map(PageMessagesTest::prefix)
                .sorted((a, b) -> b.length() - a.length()).toList();
        List<String> misplaced = new ArrayList<>();
        for (Path p : templates) {
            for (Matcher m = KEY.matcher(Files.readString(p)); m.find();) {
                String key = m.group(1);
                prefixes.stream().filter(key::startsWith).findFirst()
                        .filter(owner -> !owner.equals(prefix(p)))
                        .ifPresent(owner -> misplaced.add(p.getFileName() + " uses " + key));
            }
        }
        assertThat(prefixes).contains("alerts_", "portal_incident_", "portal_");
        assertThat(misplaced).as("keys of another page").isEmpty();
    }

    /** The Java of the pages: the web package's and each feature's web adapters ({@code alert/web/...}). */
    private static boolean pageJava(Path p) {
        String s = p.toString().replace('\\', '/');
        return s.endsWith(".java") && (s.contains("/app/vigie/web/") || s.matches(".*/app/vigie/[a-z]+/web/.*"));
    }

    private static String prefix(Path template) {
        String name = template.getFileName().toString();
        return name.substring(0, name.length() - ".html".length()).replace('-', '_') + "_";
    }

    @Test
    void eachLanguageGetsItsWords() {
        assertThat(en.base_sign_out()).isEqualTo("Sign out");
        assertThat(fr.base_sign_out()).isEqualTo("Se déconnecter");
        assertThat(en.colon()).isEqualTo(":");
        assertThat(PageWords.category(PageWords.of("fr"), "identity")).isEqualTo("état civil, identité");
        assertThat(PageWords.of("en").portal_unknown_category("x<y")).isEqualTo("unknown data category 'x<y'");
        assertThat(fr.colon()).as("French puts a no-break space before a colon").isEqualTo("\u00a0:");
        assertThat(fr.incidents_open_newest_first("12", 12, 2, 3))
                .isEqualTo("12 incidents ouverts, les plus récents d'abord ; page 2 sur 3.");
        assertThat(en.incidents_open_newest_first("12", 12, 2, 3))
                .isEqualTo("12 open incidents, newest first; page 2 of 3.");
    }

    @Test
    void countsAgreeWithTheirNounInEachLanguage() throws IOException {
        assertThat(fr.incidents_open_newest_first("1", 1, 1, 1)).isEqualTo("1 incident ouvert, les plus récents d'abord.");
        assertThat(fr.incidents_open_newest_first("0", 0, 1, 1)).startsWith("0 incident ouvert,");
        assertThat(fr.incidents_open_newest_first("10 000", 10_000, 1, 1)).startsWith("10 000 incidents ouverts,");
        assertThat(en.incidents_open_newest_first("1", 1, 1, 1)).isEqualTo("1 open incident, newest first.");
        assertThat(en.incidents_open_newest_first("0", 0, 1, 1)).startsWith("0 open incidents,");
        assertThat(fr.alerts_attempts(1)).isEqualTo("1 essai");
        assertThat(fr.alerts_attempts(3)).isEqualTo("3 essais");
        assertThat(en.alerts_attempts(1)).isEqualTo("1 attempt");
        assertThat(en.alerts_attempts(0)).isEqualTo("0 attempts");
        assertThat(fr.register_entries_head_hash(1)).isEqualTo("1 inscription, empreinte de tête");
        assertThat(en.register_entries_head_hash(1)).isEqualTo("1 entry, head hash");
        assertThat(en.register_entries_head_hash(0)).isEqualTo("0 entries, head hash");
        assertThat(fr.portal_incident_requests_another_customer(2)).isEqualTo("2 requêtes d'un autre client");
        assertThat(en.portal_incident_requests_your_own_account(1)).isEqualTo("1 request of your own account");
        // no "(s)" left for a reader to resolve, in either language
        for (String file : List.of("msg_en.properties", "msg_fr.properties")) {
            assertThat(read(file)).as(file).allSatisfy((k, v) -> assertThat(v).as(k).doesNotContain("(s)"));
        }
    }

    @Test
    void statusesAreWordsOfThePagesLanguage() {
        assertThat(CodeWords.incidentStatus("OPEN", "fr")).isEqualTo("ouvert");
        assertThat(CodeWords.incidentStatus("DISMISSED", "fr")).isEqualTo("écarté");
        assertThat(CodeWords.incidentStatus("TRIAGED", "en")).isEqualTo("triaged");
        assertThat(CodeWords.obligationStatus("PENDING", "fr")).isEqualTo("à faire");
        assertThat(CodeWords.obligationStatus("NOT_REQUIRED", "fr")).isEqualTo("non requise");
        assertThat(CodeWords.obligationStatus("DONE", "fr")).isEqualTo("faite");
        assertThat(CodeWords.obligationStatus("TARGET_PASSED", "fr")).isEqualTo("objectif dépassé");
        assertThat(CodeWords.incidentStatus("TRIAGED", "fr")).isEqualTo("qualifié");
        assertThat(CodeWords.obligationStatus("LATE", "en")).isEqualTo("late");
        assertThat(CodeWords.deliveryStatus("DEAD", "fr")).isEqualTo("abandonné");
        assertThat(CodeWords.deliveryStatus("DELIVERED", "en")).isEqualTo("delivered");
        assertThat(CodeWords.alertPhase("INITIAL", "fr")).isEqualTo("initiale");
        assertThat(CodeWords.alertPhase("UPDATE", "en")).isEqualTo("update");
        assertThat(CodeWords.customerRole("POSSIBLY_VICTIM", "fr")).endsWith("(non établi)");
        assertThat(CodeWords.timelineAction("alert.delivered", "fr")).isEqualTo(fr.incident_customer_alerted());
        // a status the words do not know yet is shown as it is, not as nothing
        assertThat(CodeWords.incidentStatus("ARCHIVED", "fr")).isEqualTo("ARCHIVED");
        assertThat(CodeWords.deliveryStatus("LOST", "en")).isEqualTo("LOST");
        assertThat(CodeWords.rule(null, "en")).isEmpty();
    }

    /**
     * Every incident status and every detector rule has its word in both languages (the switch over the enum does
     * not compile without it); a word is not its code.
     */
    @Test
    void everyCodeOfAnEnumHasItsWordInBothLanguages() {
        for (IncidentStatus s : IncidentStatus.values()) {
            assertThat(CodeWords.incidentStatus(s.name(), "fr")).as(s.name()).isNotEqualTo(s.name())
                    .isNotEqualTo(CodeWords.incidentStatus(s.name(), "en"));
        }
        for (Rule r : Rule.values()) {
            assertThat(CodeWords.rule(r.name(), "en")).as(r.name()).isNotEqualTo(r.name()).isNotBlank();
            assertThat(CodeWords.rule(r.name(), "fr")).as(r.name()).isNotEqualTo(CodeWords.rule(r.name(), "en"));
        }
    }

    /**
     * No page template chooses its words with {@code {#when}}/{@code {#switch}} either: a code's word comes from
     * {@link CodeWords} ({@code {word:severity(..)}}), chosen in Java.
     */
    @Test
    void noPageTemplateChoosesItsWordsBySwitch() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> pages = Files.list(Path.of("templates/pages"))) {
            for (Path p : pages.toList()) {
                String text = Files.readString(p);
                if (text.contains("{#when") || text.contains("{#switch")) {
                    found.add(p.getFileName().toString());
                }
            }
        }
        assertThat(found).as("page templates with {#when}/{#switch}").isEmpty();
        assertThat(CodeWords.severity("VERY_HIGH", "fr")).isEqualTo(fr.severity_very_high());
        assertThat(CodeWords.severity(null, "en")).isEqualTo(en.severity_not_assessed());
        assertThat(CodeWords.nextStatus("DISMISSED", "fr")).isEqualTo(fr.incident_dismissed_reason_required());
        assertThat(CodeWords.tenantField("legal_name", "fr")).isEqualTo(fr.tenants_legal_name());
        assertThat(CodeWords.tenantField("processor_is_agent", "en"))
                .isEqualTo(PageWords.cockpit("en").directory_processor_is_agent());
    }

    /** No message of any bundle chooses its words at run time ({@code {#when}}/{@code {#switch}}): one per word. */
    @Test
    void noMessageChoosesItsWordsAtRunTime() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/messages"))) {
            for (Path f : files.filter(x -> x.toString().endsWith(".properties")).toList()) {
                assertThat(read(f.getFileName().toString())).as(f.toString()).allSatisfy((k, v) ->
                        assertThat(v).as(k).doesNotContain("{#when").doesNotContain("{#switch"));
            }
        }
    }

    private static Map<String, String> read(String file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(Path.of("src/main/resources/messages", file), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        Map<String, String> out = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }

    /**
     * A feature page's own bundle (settings {@code {st:...}}, test alert {@code {ta:...}}): every message in both
     * languages, each with its own words (a number alone may read the same).
     */
    @Test
    void eachFeaturePagesWordsExistInBothLanguages() throws IOException {
        for (Class<?> bundle : List.of(SettingsMessages.class, TestAlertMessages.class, CodeMessages.class)) {
            String name = bundle.getAnnotation(MessageBundle.class).value();
            Map<String, String> english = read(name + "_en.properties");
            Map<String, String> french = read(name + "_fr.properties");
            List<String> methods = Arrays.stream(bundle.getDeclaredMethods())
                    .filter(m -> m.isAnnotationPresent(Message.class)).map(Method::getName).toList();
            assertThat(english.keySet()).as(name).containsExactlyInAnyOrderElementsOf(methods);
            assertThat(french.keySet()).as(name).containsExactlyInAnyOrderElementsOf(methods);
            for (String method : methods) {
                if (!english.get(method).matches("[{}\\w ]*ms")) {
                    assertThat(french.get(method)).as(name + "." + method).isNotEqualTo(english.get(method));
                }
            }
        }
    }

    /**
     * The cockpit's bundle (CockpitMessages, {@code {ck:...}}): both languages have every message, every message is
     * used, and no message chooses its words at run time ({@code {#when}}, which the build cannot check): one message
     * per word, named after its section ({@code act_resend}), so that a word asked and missing stops the build.
     */
    @Test
    void theCockpitsWordsExistInBothLanguagesForEveryKeyAsked() throws IOException {
        Map<String, String> english = read("ck_en.properties");
        Map<String, String> french = read("ck_fr.properties");
        List<String> methods = Arrays.stream(CockpitMessages.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Message.class)).map(Method::getName).toList();
        assertThat(english.keySet()).containsExactlyInAnyOrderElementsOf(methods);
        assertThat(french.keySet()).containsExactlyInAnyOrderElementsOf(methods);
        Pattern asked = Pattern.compile("\\{ck:(\\w+)");
        Pattern javaAsked = Pattern.compile("(?:cockpit\\([^)]*\\)|ck)\\.(\\w+)\\(");
        List<String> used = new ArrayList<>();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> pages = Files.list(Path.of("templates/pages"));
                Stream<Path> java = Files.walk(Path.of("src/main/java/app/vigie"))) {
            sources.addAll(pages.toList());
            sources.addAll(java.filter(PageMessagesTest::pageJava).toList());
        }
        for (Path p : sources) {
            Matcher m = (p.toString().endsWith(".java") ? javaAsked : asked).matcher(Files.readString(p));
            while (m.find()) {
                used.add(m.group(1));
            }
        }
        assertThat(used).as("every cockpit message is used").containsAll(methods);
        for (String method : methods) {
            assertThat(english.get(method) + french.get(method)).as(method + ": a word chosen at run time")
                    .doesNotContain("{#when");
        }
        CockpitMessages ckFr = PageWords.cockpit("fr");
        CockpitMessages ckEn = PageWords.cockpit("en");
        assertThat(ckFr.act_resend()).isEqualTo("Renvoyer l'alerte");
        assertThat(ckEn.act_resend()).isEqualTo("Send the alert again");
        assertThat(ckFr.happened_bucket("1", "2", 1)).isEqualTo("1 réponse portant des jetons d'un autre client du 1 au 2");
        assertThat(ckFr.happened_bucket("1", "2", 3)).isEqualTo("3 réponses portant des jetons d'un autre client du 1 au 2");
        assertThat(ckEn.happened_bucket("1", "2", 1)).isEqualTo("1 response with another customer's tokens from 1 to 2");
        assertThat(ckEn.happened_bucket("1", "2", 2)).startsWith("2 responses with");
        assertThat(ckFr.directory_saved_count(1)).isEqualTo("1 client créé ou modifié.");
        assertThat(ckFr.happened_delivered_count(1)).isEqualTo("1 remise");
        assertThat(ckFr.happened_delivered_count(67)).isEqualTo("67 remises");
        assertThat(ckFr.directory_saved_count(2)).isEqualTo("2 clients créés ou modifiés.");
        assertThat(ckEn.directory_preview_counts(1, 0)).isEqualTo("1 tenant to save, 0 lines refused");
        assertThat(ckFr.directory_preview_counts(2, 1)).isEqualTo("2 clients à enregistrer, 1 ligne refusée");
    }

    /** Quarkus 3.33 generates a bundle of more than 300 messages that does not start (see PageMessages). */
    @Test
    void theBundleStaysWithinTheResolverLimit() {
        long methods = Arrays.stream(PageMessages.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Message.class)).count();
        assertThat(methods).as("@Message methods of PageMessages").isBetween(200L, 300L);
    }
}
