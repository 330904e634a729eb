package app.vigie.pack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;

import app.vigie.incident.IncidentService;

/**
 * Issue 41, point 7: a controller's pack reads that controller's exposures only from the database, never the whole
 * incident's to filter them in memory (an incident of millions of exposures would be loaded for one customer's few).
 * Checked on the compiled code: nothing that makes a controller's pack (its method and the lambdas written in it)
 * calls the read of every exposure of an incident.
 */
class PackReadsTest {

    @Test
    void aControllersPackNeverReadsTheWholeIncidentsExposures() {
        JavaClass pack = new ClassFileImporter().importClasses(RegulatorPackService.class)
                .get(RegulatorPackService.class);
        List<JavaCodeUnit> controller = pack.getCodeUnits().stream()
                .filter(u -> u.getName().equals("controller") || u.getName().startsWith("lambda$controller$"))
                .toList();
        assertThat(controller).as("the code that makes a controller's pack").isNotEmpty();
        List<String> wholeReads = controller.stream().flatMap(u -> u.getMethodCallsFromSelf().stream())
                .filter(call -> call.getTargetOwner().isEquivalentTo(IncidentService.class)
                        && call.getName().equals("exposures") && call.getTarget().getRawParameterTypes().size() == 1)
                .map(call -> call.getDescription()).toList();
        assertThat(wholeReads).as("reads of every exposure of the incident by a controller's pack").isEmpty();
    }
}
