package app.vigie.build;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * The shape of the code as rules that fail the build (docs/architecture.md draws it): web on top, then the features,
 * then intake and detection, then the framework-free cores; support packages below all of them. Checked on the
 * compiled classes of the service and of the reference runtime (both in target/classes), tests left out.
 */
class ArchitectureTest {
    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("app.vigie");

    static final String JAX_RS_PATH = "jakarta.ws.rs.Path";
    /** Packages whose code is plain Java: records in, decisions out, no framework. */
    static final String[] CORES = {"app.vigie.detection.core..", "app.vigie.auditlog.record..",
        "app.vigie.compliance.rules..", "app.vigie.compliance.plan..", "app.vigie.compliance.severity..",
        "app.vigie.rootcause.core.."};
    /** What a core must not use: containers, HTTP, persistence, messaging, configuration, logging frameworks. */
    static final String[] FRAMEWORKS = {"io.quarkus..", "jakarta..", "javax.sql..", "java.sql..", "io.vertx..",
        "io.smallrye..", "org.jboss..", "org.hibernate..", "io.agroal..", "org.eclipse.microprofile..",
        "org.apache.kafka..", "io.micrometer.."};

    /** A feature's pages (alert.web, settings.web): in the web layer, above every feature. */
    static final String FEATURE_PAGES = "app.vigie.*.web..";

    @Test
    void theLayersDependOnlyDownwards() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Web").definedBy(resideInAnyPackage("app.vigie.web..", FEATURE_PAGES))
                .layer("Application").definedBy("app.vigie.cli..", "app.vigie.embedded..", "app.vigie.demo..",
                        "app.vigie.warmup..")
                .layer("Features").definedBy(resideInAnyPackage("app.vigie.alert..", "app.vigie.notice..",
                        "app.vigie.register..", "app.vigie.compliance.service..", "app.vigie.incident..",
                        "app.vigie.tenant..", "app.vigie.security..", "app.vigie.pack..", "app.vigie.metrics..",
                        "app.vigie.retention..", "app.vigie.rootcause", "app.vigie.settings..")
                        .and(DescribedPredicate.not(resideInAnyPackage(FEATURE_PAGES))))
                .layer("Intake and detection").definedBy("app.vigie.auditlog", "app.vigie.auditlog.intake..",
                        "app.vigie.auditlog.kafka..", "app.vigie.auditlog.rest..", "app.vigie.auditlog.store..",
                        "app.vigie.detection",
                        "app.vigie.detection.store..")
                .layer("Cores").definedBy(CORES)
                .layer("Reference runtime").definedBy("app.vigie.runtime..")
                .layer("Support").definedBy(resideInAnyPackage("app.vigie.db..", "app.vigie.json..",
                        "app.vigie.time..", "app.vigie.problem..", "app.vigie.platform..", "app.vigie.kafka..",
                        "app.vigie.export..", "app.vigie.audit..")
                        .and(DescribedPredicate.not(resideInAnyPackage(FEATURE_PAGES))))
                .whereLayer("Web").mayOnlyBeAccessedByLayers("Application")
                .whereLayer("Application").mayNotBeAccessedByAnyLayer()
                .whereLayer("Features").mayOnlyBeAccessedByLayers("Web", "Application")
                .whereLayer("Intake and detection").mayOnlyBeAccessedByLayers("Features", "Web", "Application")
                .whereLayer("Cores").mayOnlyBeAccessedByLayers("Intake and detection", "Features", "Web",
                        "Application")
                .whereLayer("Reference runtime").mayOnlyBeAccessedByLayers("Application")
                .check(CLASSES);
    }

    /**
     * The rooms (the packages under app.vigie) import each other without a cycle: drawn floor by floor from their
     * imports, no arrow runs back up. Two rooms that need each other are one room, or a listener is missing.
     */
    @Test
    void noRoomImportsOneAboveIt() {
        slices().assignedFrom(ROOMS).should().beFreeOfCycles().check(CLASSES);
    }

    /** A room: a package under app.vigie, each plain-Java core a room of its own (detection.core, auditlog.record…). */
    static final SliceAssignment ROOMS = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String p = c.getPackageName();
            if (!p.startsWith("app.vigie.")) {
                return SliceIdentifier.ignore();
            }
            for (String core : CORES) {
                String name = core.substring(0, core.length() - 2);
                if (p.equals(name) || p.startsWith(name + ".")) {
                    return SliceIdentifier.of(name.substring("app.vigie.".length()));
                }
            }
            String[] parts = p.substring("app.vigie.".length()).split("\\.");
            // a feature's page and REST adapters (settings.web, settings.rest) are rooms above their feature
            boolean adapter = parts.length > 1 && (parts[1].equals("web") || parts[1].equals("rest"));
            return SliceIdentifier.of(adapter ? parts[0] + "." + parts[1] : parts[0]);
        }

        @Override
        public String getDescription() {
            return "rooms: the packages under app.vigie, each core apart";
        }
    };

    @Test
    void everyClassIsInALayer() {
        classes().should().resideInAnyPackage("app.vigie.web..", "app.vigie.cli..", "app.vigie.embedded..", "app.vigie.demo..", "app.vigie.warmup..",
                "app.vigie.alert..", "app.vigie.notice..", "app.vigie.register..", "app.vigie.compliance..",
                "app.vigie.incident..", "app.vigie.tenant..", "app.vigie.security..", "app.vigie.auditlog..",
                "app.vigie.detection..", "app.vigie.runtime..", "app.vigie.db..", "app.vigie.json..",
                "app.vigie.time..", "app.vigie.problem..", "app.vigie.platform..", "app.vigie.kafka..",
                "app.vigie.export..", "app.vigie.audit..", "app.vigie.pack..", "app.vigie.metrics..",
                "app.vigie.retention..", "app.vigie.rootcause..", "app.vigie.settings..")
                .because("a new package takes its place in the layers (theLayersDependOnlyDownwards)")
                .check(CLASSES);
    }

    @Test
    void theCoresUseNoFramework() {
        noClasses().that().resideInAnyPackage(CORES).should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                .because("the cores are plain Java: records in, findings and plans out")
                .check(CLASSES);
    }

    @Test
    void detectionTellsTheFeaturesAboveItThroughListenersOnly() {
        noClasses().that().resideInAPackage("app.vigie.detection..").should().dependOnClassesThat()
                .resideInAnyPackage("app.vigie.alert..", "app.vigie.notice..", "app.vigie.register..",
                        "app.vigie.web..")
                .because("detection publishes what changed (ExposuresListener); alerting subscribes")
                .check(CLASSES);
    }

    @Test
    void aResourceOrPageReachesNoOtherResource() {
        noClasses().that().areAnnotatedWith(JAX_RS_PATH).should().dependOnClassesThat(
                new DescribedPredicate<JavaClass>("are other resources or pages (annotated with @Path)") {
                    @Override
                    public boolean test(JavaClass c) {
                        return c.isAnnotatedWith(JAX_RS_PATH);
                    }
                })
                .because("a resource or page translates HTTP to calls of a feature service; what two of them share "
                        + "is a service or a helper class, not a resource")
                .check(CLASSES);
    }

    @Test
    void aResourceOrPageLeavesTheTransactionToItsService() {
        noClasses().that().areAnnotatedWith(JAX_RS_PATH)
                .should().dependOnClassesThat().haveFullyQualifiedName("app.vigie.db.Transactions")
                .orShould().dependOnClassesThat().resideInAPackage("io.agroal..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("jakarta.transaction.Transactional")
                .because("a use case is one transaction, opened and ended by the feature service that also writes its "
                        + "audit event; the resource or page only translates HTTP")
                .check(CLASSES);
    }

    /**
     * A feature writes another's data only through a listener the writing side owns: the alerts tell of an
     * acknowledgement ({@code incident.AcknowledgementListener}) and compliance records the controller's awareness;
     * the alerts reach nothing of compliance.
     */
    @Test
    void theAlertsWriteNoCaseFactOfCompliance() {
        noClasses().that().resideInAPackage("app.vigie.alert..")
                .should().dependOnClassesThat().resideInAPackage("app.vigie.compliance..")
                .because("a cross-feature write goes through an event its listener handles, in the same transaction")
                .check(CLASSES);
    }

    /**
     * A class marked {@code @TemplateExtension} lends each of its non-private static methods to every template, as a
     * property of the type of its first parameter: one taking an {@code Object} (without a namespace) becomes a
     * property of every object and shadows the view models' own. A public {@code Numbers.language(Object)} once made
     * every page render {@code lang=""}.
     */
    @Test
    void noTemplateExtensionShadowsEveryObjectsProperties() {
        String extension = "io.quarkus.qute.TemplateExtension";
        List<String> shadowing = new ArrayList<>();
        for (JavaClass type : CLASSES) {
            boolean wholeClass = type.isAnnotatedWith(extension);
            type.getMethods().stream()
                    .filter(m -> m.getModifiers().contains(JavaModifier.STATIC))
                    .filter(m -> !m.getModifiers().contains(JavaModifier.PRIVATE))
                    .filter(m -> m.isAnnotatedWith(extension) || wholeClass)
                    .filter(m -> !m.getRawParameterTypes().isEmpty()
                            && (m.getRawParameterTypes().get(0).isEquivalentTo(Object.class)
                                    || m.getRawParameterTypes().get(0).isEquivalentTo(Record.class)))
                    .filter(m -> !m.isAnnotatedWith(extension)
                            || "".equals(m.getAnnotationOfType(extension).get("namespace").orElse("")))
                    .forEach(m -> shadowing.add(m.getFullName()));
        }
        assertThat(shadowing).as("template extensions on Object, outside a namespace").isEmpty();
    }

    /**
     * The intake's hot path: its chunks and the gap releases of its sequencer run their own JDBC transactions, with
     * the sequencer's hooks at commit and rollback (docs/architecture.md, "Transactions").
     */
    static final Set<String> INTAKE_HOT_PATH = Set.of("app.vigie.auditlog.IngestService",
            "app.vigie.auditlog.GapService");

    @Test
    void aUseCaseIsAUnitOfWorkAndOnlyTheIntakesHotPathRunsItsOwnTransactions() {
        noClasses().that(new DescribedPredicate<JavaClass>("are not the intake's hot path nor app.vigie.db") {
            @Override
            public boolean test(JavaClass c) {
                String name = c.getName().replaceAll("\\$.*", "");
                return !INTAKE_HOT_PATH.contains(name) && !name.startsWith("app.vigie.db.");
            }
        }).should().callMethodWhere(new DescribedPredicate<JavaMethodCall>("run a transaction of their own "
                + "(Transactions.run, QuarkusTransaction.requiringNew/joiningExisting/run/call)") {
            @Override
            public boolean test(JavaMethodCall call) {
                String owner = call.getTargetOwner().getName();
                String method = call.getName();
                return owner.equals("app.vigie.db.Transactions") && method.equals("run")
                        || owner.equals("io.quarkus.narayana.jta.QuarkusTransaction") && !method.equals("isActive");
            }
        }).orShould().dependOnClassesThat().haveFullyQualifiedName("jakarta.transaction.Transactional")
                .because("a service's use case is a method marked @UnitOfWork: one transaction, begun and ended "
                        + "there, retried on a deadlock, with one rule for checked exceptions (rolled back); a reader "
                        + "finds where a transaction begins by its annotation")
                .check(CLASSES);
    }

    /** Classes that may hold SQL: the stores and query classes, the entities' repositories, the database's set-up. */
    static final DescribedPredicate<JavaClass> MAY_HOLD_SQL = new DescribedPredicate<>(
            "stores, queries, repositories and the database's set-up") {
        @Override
        public boolean test(JavaClass c) {
            String name = c.getName().replaceAll("\\$.*", "");
            String simple = name.substring(name.lastIndexOf('.') + 1);
            return simple.endsWith("Store") || simple.endsWith("Queries") || simple.endsWith("Repository")
                    || name.startsWith("app.vigie.embedded.") || name.startsWith("app.vigie.db.");
        }
    };
    static final Set<String> QUERIES = Set.of("find", "findAll", "list", "listAll", "stream", "streamAll", "count",
            "update", "delete", "deleteAll", "findById", "findByIdOptional");

    @Test
    void sqlLivesInStoresAndRepositoriesOnly() {
        noClasses().that(DescribedPredicate.not(MAY_HOLD_SQL)).should().callMethodWhere(
                new DescribedPredicate<JavaMethodCall>("prepare a JDBC statement") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTargetOwner().isAssignableTo(Connection.class)
                                && Set.of("prepareStatement", "createStatement", "prepareCall")
                                        .contains(call.getName());
                    }
                })
                .because("a query beside HTTP or business code is a store missing")
                .check(CLASSES);
        noClasses().that(DescribedPredicate.not(MAY_HOLD_SQL)).and().areNotAssignableTo(PanacheEntityBase.class)
                .should().callMethodWhere(new DescribedPredicate<JavaMethodCall>("query entities through Panache") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        // Panache's own finders, not a repository's methods of the same name
                        return QUERIES.contains(call.getName()) && call.getTarget().resolveMember()
                                .map(m -> m.getOwner().getPackageName().startsWith("io.quarkus.hibernate.orm.panache"))
                                .orElse(false);
                    }
                })
                .because("entity queries belong to the entity's static finders or its repository")
                .check(CLASSES);
        noClasses().that(DescribedPredicate.not(MAY_HOLD_SQL)).and().areNotAssignableTo(PanacheEntityBase.class)
                .should().callMethodWhere(new DescribedPredicate<JavaMethodCall>("run native SQL through JPA") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTargetOwner().isAssignableTo(EntityManager.class)
                                && call.getName().startsWith("createNative");
                    }
                })
                .because("a native statement (a lock, an insert that does nothing on conflict) belongs to the entity "
                        + "or store whose table it writes")
                .check(CLASSES);
    }

    @Test
    void theReferenceRuntimeIsPlainJavaWithTheKafkaClientInItsSinksOnly() {
        classes().that().resideInAPackage("app.vigie.runtime..").should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "app.vigie.runtime..", "org.apache.kafka..")
                .because("the runtime is a plain-Java library the service may use, never the reverse")
                .check(CLASSES);
        noClasses().that().resideInAPackage("app.vigie.runtime..").and()
                .resideOutsideOfPackage("app.vigie.runtime.sim..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
                .because("the pool, the engine and the log writer stay plain Java; only the sinks use Kafka")
                .check(CLASSES);
    }

    @Test
    void theRuntimePomHasNoDependencyOutsideTestsButTheKafkaClient() throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(Path.of("inference-runtime", "pom.xml").toFile());
        NodeList deps = doc.getElementsByTagName("dependency");
        assertThat(deps.getLength()).isPositive();
        List<String> compile = new ArrayList<>();
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            NodeList scope = d.getElementsByTagName("scope");
            if (scope.getLength() == 0 || !scope.item(0).getTextContent().equals("test")) {
                compile.add(d.getElementsByTagName("artifactId").item(0).getTextContent());
            }
        }
        assertThat(compile).containsExactly("kafka-clients");
    }

    @Test
    void noInlineFullyQualifiedNames() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : List.of(Path.of("src/main/java"), Path.of("src/test/java"),
                Path.of("inference-runtime/src/main/java"), Path.of("inference-runtime/src/test/java"))) {
            assertThat(root).as("run from the project's root").isDirectory();
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(p -> p.toString().endsWith(".java"))
                        .forEach(p -> found.addAll(InlineNames.of(p, read(p))));
            }
        }
        assertThat(found).as("types named in full in code where an import would show the dependency").isEmpty();
    }

    /**
     * A page class is small (under 300 lines: its view model is assembled elsewhere when it grows), and no template is
     * looked up by a string built at run time: pages name theirs through {@code @CheckedTemplate}, documents and the
     * alert e-mail through {@code @Location} fields, both found and checked by the build.
     */
    @Test
    void pageClassesAreSmallAndTheirTemplatesChecked() throws IOException {
        List<String> large = new ArrayList<>();
        List<String> byString = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path p : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                String text = read(p);
                boolean page = text.contains("@Produces(MediaType.TEXT_HTML)") && text.contains("@Path(");
                long lines = text.lines().count();
                if (page && lines >= 300) {
                    large.add(p + ": " + lines + " lines");
                }
                if (text.contains("getTemplate(")) {
                    byString.add(p.toString());
                }
            }
        }
        assertThat(large).as("page classes of 300 lines or more").isEmpty();
        assertThat(byString).as("templates looked up by string (Engine.getTemplate)").isEmpty();
    }

    @Test
    void inlineNamesAreFoundInCodeOnly() {
        String source = String.join("\n", "package app.vigie.x;", "import java.util.List;",
                "/** {@link app.vigie.alert.AlertService} */", "class A {",
                "  app.vigie.alert.AlertService alerts; // app.vigie.web.Page",
                "  String s = \"app.vigie.web.Page\";", "  java.util.List<String> l;", "  java.awt.List awt;",
                "  java.lang.String t;", "}");
        assertThat(InlineNames.of(Path.of("A.java"), source))
                .containsExactly("A.java:5: app.vigie.alert.AlertService", "A.java:7: java.util.List",
                        "A.java:9: java.lang.String");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
