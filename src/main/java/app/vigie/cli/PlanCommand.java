package app.vigie.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.compliance.rules.InvalidRules;
import app.vigie.json.JsonConfig;
import app.vigie.problem.ProblemException;
import app.vigie.compliance.service.PlanResource;
import app.vigie.compliance.service.ComplianceRules;

/**
 * {@code plan FILE.json}: the answer of {@code POST /api/obligations/plan} for the request in the file, printed;
 * nothing stored, no database, no service started. The rules and the provider's profile are the service's:
 * {@code VIGIE_COMPLIANCE_RULES_DIR} (else ./compliance-rules, else the copy inside the application),
 * {@code VIGIE_PROVIDER_COUNTRY} (FR) and {@code VIGIE_PROVIDER_REGIMES} (nis2).
 */
public final class PlanCommand {
    private PlanCommand() {
    }

    /** Runs the command; the exit status: 0 planned, 2 bad usage or bad facts or rules. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length != 1 || args[0].startsWith("-")) {
            err.println("usage: plan FILE.json   (the body of POST /api/obligations/plan; docs/obligations-plan.md)");
            return 2;
        }
        ObjectMapper json = JsonConfig.standalone();
        JsonNode body;
        try {
            body = json.readTree(Files.readString(Path.of(args[0])));
        } catch (JsonProcessingException e) {
            err.println(args[0] + ": not JSON: " + e.getOriginalMessage());
            return 2;
        } catch (IOException e) {
            err.println(args[0] + ": cannot read: " + e.getMessage());
            return 2;
        }
        ComplianceRules rules;
        try {
            rules = new ComplianceRules(env("VIGIE_COMPLIANCE_RULES_DIR"),
                    env("VIGIE_PROVIDER_COUNTRY").orElse("FR"),
                    Optional.of(env("VIGIE_PROVIDER_REGIMES").map(v -> Arrays.stream(v.split(","))
                            .map(String::strip).filter(s -> !s.isEmpty()).toList()).orElse(List.of("nis2"))),
                    List.of(Duration.ZERO), false);
        } catch (InvalidRules | IllegalStateException e) {
            err.println("compliance rules: " + e.getMessage());
            return 2;
        }
        try {
            out.println(json.writerWithDefaultPrettyPrinter().writeValueAsString(
                    PlanResource.answer(rules, body, Instant.now())));
            return 0;
        } catch (ProblemException e) {
            err.println(args[0] + ": " + e.getMessage());
            return 2;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Optional<String> env(String name) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
    }
}
