<#-- Tuber Market's login page. "Forgot Password?" and "Sign up" go to the product (/forgot-password,
     /onboarding): its own reset flow and sign-up forms, not Keycloak's. "Remember me" shows when the realm
     offers it (30-day sessions on this device). The form keeps Keycloak's ids (kc-form-login, username,
     password, rememberMe, kc-login, input-error) that tests and password managers rely on; nothing here
     runs inline script (resources/js/tuber.js does the show-password button and the one-click submit). -->
<#import "template.ftl" as layout>
<#assign appUrl = ((client.baseUrl)!'')?remove_ending('/')>
<#assign loginError = messagesPerField.existsError('username','password')>
<@layout.registrationLayout displayMessage=!loginError displayInfo=true; section>
    <#if section = "header">
        ${msg("loginAccountTitle")}
    <#elseif section = "form">
        <div id="kc-form">
          <div id="kc-form-wrapper">
            <form id="kc-form-login" class="${properties.kcFormClass!}" action="${url.loginAction}" method="post" data-tuber-submit-once>
                <#if !usernameHidden??>
                    <div class="${properties.kcFormGroupClass!}">
                        <label for="username" class="${properties.kcLabelClass!}">${msg("email")}</label>
                        <input id="username" class="${properties.kcInputClass!}" name="username" value="${(login.username!'')}" type="email" inputmode="email"
                               autofocus autocomplete="username" autocapitalize="none" spellcheck="false" dir="ltr"
                               aria-invalid="<#if loginError>true</#if>"<#if loginError> aria-describedby="input-error"</#if>/>
                    </div>
                </#if>

                <div class="${properties.kcFormGroupClass!}">
                    <label for="password" class="${properties.kcLabelClass!}">${msg("password")}</label>
                    <div class="${properties.kcInputGroup!}" dir="ltr">
                        <input id="password" class="${properties.kcInputClass!}" name="password" type="password" autocomplete="current-password"
                               aria-invalid="<#if loginError>true</#if>"<#if loginError> aria-describedby="input-error"</#if>/>
                        <button type="button" class="tuber-reveal" aria-controls="password" data-tuber-reveal
                                data-label-show="${msg("tuberShow")}" data-label-hide="${msg("tuberHide")}"><span data-tuber-reveal-label>${msg("tuberShow")}</span><span class="tuber-sr-only"> ${msg("password")?lower_case}</span></button>
                    </div>
                    <#if loginError>
                        <p id="input-error" class="${properties.kcInputErrorMessageClass!}" aria-live="polite">
                            ${kcSanitize(messagesPerField.getFirstError('username','password'))?no_esc}
                        </p>
                    </#if>
                </div>

                <div class="${properties.kcFormSettingClass!}">
                    <#if realm.rememberMe && !usernameHidden??>
                        <label class="tuber-check" for="rememberMe">
                            <input id="rememberMe" name="rememberMe" type="checkbox"<#if login.rememberMe??> checked</#if>>
                            <span>${msg("rememberMe")}</span>
                        </label>
                    </#if>
                    <a id="tuber-forgot-password" class="tuber-options__link" href="${appUrl}/forgot-password">${msg("doForgotPassword")}</a>
                </div>

                <div id="kc-form-buttons" class="${properties.kcFormButtonsClass!}">
                    <input type="hidden" id="id-hidden-input" name="credentialId" <#if auth.selectedCredential?has_content>value="${auth.selectedCredential}"</#if>/>
                    <input class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" name="login" id="kc-login" type="submit" value="${msg("doLogIn")}"/>
                </div>
            </form>
          </div>
        </div>
    <#elseif section = "info">
        <div id="kc-registration-container">
            <p id="kc-registration">${msg("noAccount")} <a id="tuber-sign-up" href="${appUrl}/onboarding">${msg("doRegister")}</a></p>
        </div>
    </#if>
</@layout.registrationLayout>
