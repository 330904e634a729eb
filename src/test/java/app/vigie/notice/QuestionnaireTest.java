package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.audit.AuditFilter;
import app.vigie.audit.AuditService;
import app.vigie.compliance.service.CaseService;
import app.vigie.problem.ProblemException;
import app.vigie.testing.Api;

/**
 * The portal's questionnaire is one use case: the data concerned (statements) and the severity's inputs are recorded
 * together or not at all, so that a refused severity leaves no half-answered case behind.
 */
@QuarkusTest
class QuestionnaireTest {
    @Inject
    StatementService statements;

    @Inject
    CaseService cases;

    @Inject
    AuditService audit;

    @Test
    void theAnswersAreRecordedTogetherOrNotAtAll() throws SQLException {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String id = Api.leakingIncident(p, acme, p + "-globex");

        // ENISA's data processing context is refused after the statements were written: nothing stays
        assertThatThrownBy(() -> statements.answer(id, acme, new StatementService.Questionnaire(
                List.of("Identity"), List.of(), 12L, "no-such-context", "negligible"), "customer"))
                .isInstanceOf(ProblemException.class);
        assertThat(statements.get(id, acme).dataCategories()).as("statements rolled back").isNullOrEmpty();
        assertThat(cases.tenantCase(id, acme).severity()).as("no severity recorded").isNull();
        assertThat(audit.find(new AuditFilter(null, null, "incident:" + id + "/tenant:" + acme, null, null, null),
                10)).as("no audit event of a change that did not happen").isEmpty();

        // accepted: both, each audited
        statements.answer(id, acme, new StatementService.Questionnaire(List.of("Identity"), List.of(), 12L,
                "simple", "negligible"), "customer");
        assertThat(statements.get(id, acme).dataCategories()).containsExactly("Identity");
        assertThat(statements.get(id, acme).approximatePersons()).isEqualTo(12L);
        assertThat(cases.tenantCase(id, acme).severity().inputs().category()).isEqualTo("simple");
        assertThat(audit.find(new AuditFilter(null, null, "incident:" + id + "/tenant:" + acme, null, null, null),
                10)).extracting(e -> e.action).containsExactlyInAnyOrder("case.statements", "case.severity");
    }
}
