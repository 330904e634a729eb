package app.vigie.web.csrf;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.ws.rs.NameBinding;

/**
 * Marks a dashboard action that a browser form posts: {@link CsrfFilter} checks its token before the action runs.
 * Every POST of the dashboard's pages carries it ({@code CsrfCoverageTest} fails when one does not); the JSON API
 * under /api takes HTTP Basic only and is not a browser's form target.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface DashboardForm {
}
