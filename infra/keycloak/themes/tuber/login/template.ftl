<#-- Tuber Market's layout for every Keycloak login page (Keycloak's own templates use it too: error, page
     expired, update password…). Written for the product rather than extending the parent's layout, because
     that one carries inline scripts (an import map and a session-polling module) that the gateway's
     Content-Security-Policy forbids. Here: the product's header (wordmark linking home), one card, the
     page's sections, and one external script (resources/js/tuber.js) for the show-password buttons, the
     product's "Resend verification", one-click submits, Keycloak's login-in-another-tab check and the
     address clean-up after a form post.
     The macro keeps the parent's name and parameters, so Keycloak's templates render inside it. -->
<#macro registrationLayout bodyClass="" displayInfo=false displayMessage=true displayRequiredFields=false showAnotherWayIfPresent=true others...>
<#-- Home is the product's address from its own client; pages of another client (Keycloak's account console,
     a logout without a client) link to "/", the product on this same origin behind the gateway. -->
<#assign homeUrl = (((client.clientId)!'') == 'tuber-web' && ((client.baseUrl)!'')?has_content)?then(client.baseUrl, '/')>
<!DOCTYPE html>
<html lang="${(locale.currentLanguageTag)!'en'}" class="${properties.kcHtmlClass!}">
<head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex, nofollow">
    <meta name="theme-color" content="#15803d">
    <title>${msg("loginTitle",(realm.displayName!''))}</title>
    <link rel="icon" href="${url.resourcesPath}/img/favicon.svg" type="image/svg+xml">
    <#if properties.styles?has_content>
        <#list properties.styles?split(' ') as style>
            <link href="${url.resourcesPath}/${style}" rel="stylesheet">
        </#list>
    </#if>
    <#if scripts??>
        <#list scripts as script>
            <script src="${script}" type="text/javascript"></script>
        </#list>
    </#if>
    <script type="module" src="${url.resourcesPath}/js/tuber.js"></script>
<#-- No closing head tag, on purpose (HTML lets it be left out): after a form post Keycloak's server puts an
     inline history.replaceState script just before "</head>" when it finds one; without it the page stays
     free of inline script, and tuber.js does the same address clean-up. -->
<body class="tuber-page ${bodyClass}"<#if (url.ssoLoginInOtherTabsUrl)??> data-login-in-other-tab-url="${url.ssoLoginInOtherTabsUrl}"</#if>>
    <header class="tuber-header">
        <div class="tuber-header__inner">
            <a id="tuber-wordmark" class="tuber-wordmark" href="${homeUrl}" aria-label="${msg("tuberHome")}">${msg("tuberWordmark")}</a>
            <#-- The language switch (issue 25): the product's five languages, each in its own name, as plain links
                 (Keycloak keeps the choice in its locale cookie); a <details> opens it without any script. The
                 summary is a 44 px target. -->
            <#if realm.internationalizationEnabled && locale?? && locale.supported?size gt 1>
                <details id="tuber-language" class="tuber-lang">
                    <summary class="tuber-lang__toggle" aria-label="${msg("tuberLanguage")}: ${locale.current}">
                        <svg class="tuber-lang__globe" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" fill="none" stroke="currentColor" stroke-width="1.8"/></svg>
                        <span class="tuber-lang__current">${locale.current}</span>
                    </summary>
                    <ul class="tuber-lang__list" role="list">
                        <#list locale.supported as l>
                            <li><a class="tuber-lang__option" href="${l.url}" lang="${l.languageTag}"<#if l.languageTag == locale.currentLanguageTag> aria-current="true"</#if>>${l.label}</a></li>
                        </#list>
                    </ul>
                </details>
            </#if>
        </div>
    </header>
    <main class="tuber-main">
        <div class="${properties.kcFormCardClass!}">
            <h1 id="kc-page-title" class="tuber-title"><#nested "header"></h1>
            <#if auth?has_content && auth.showUsername() && !auth.showResetCredentials()>
                <#nested "show-username">
                <div id="kc-username" class="tuber-attempted">
                    <span id="kc-attempted-username">${auth.attemptedUsername}</span>
                    <a id="reset-login" href="${url.loginRestartFlowUrl}">${msg("restartLoginTooltip")}</a>
                </div>
            </#if>
            <#if displayRequiredFields>
                <p class="tuber-required-note"><span class="required">*</span> ${msg("requiredFields")}</p>
            </#if>

            <div id="kc-content">
                <div id="kc-content-wrapper">
                    <#-- Application-initiated actions do not need the warning that an action is required. -->
                    <#if displayMessage && message?has_content && (message.type != 'warning' || !isAppInitiatedAction??)>
                        <div class="${properties.kcAlertClass!} tuber-alert--${message.type}" role="<#if message.type = 'error'>alert<#else>status</#if>">
                            <span class="${properties.kcAlertTitleClass!}">${kcSanitize(message.summary)?no_esc}</span>
                        </div>
                    </#if>

                    <#nested "form">

                    <#if showAnotherWayIfPresent && auth?has_content && auth.showTryAnotherWayLink()>
                        <form id="kc-select-try-another-way-form" action="${url.loginAction}" method="post">
                            <input type="hidden" name="tryAnotherWay" value="on">
                            <button id="try-another-way" type="submit" class="tuber-link-button">${msg("doTryAnotherWay")}</button>
                        </form>
                    </#if>

                    <#nested "socialProviders">

                    <#if displayInfo>
                        <div id="kc-info" class="${properties.kcSignUpClass!}">
                            <div id="kc-info-wrapper" class="${properties.kcInfoAreaWrapperClass!}">
                                <#nested "info">
                            </div>
                        </div>
                    </#if>
                </div>
            </div>
        </div>
    </main>
    <div id="tuber-toasts" class="tuber-toasts" aria-live="polite"></div>
</body>
</html>
</#macro>
