<#-- Tuber Market's login page: Keycloak's layout (template.ftl) with the product's copy and links.
     "Forgot Password?" and "Sign up" go to the shell (/forgot-password, /onboarding): the product's own
     reset flow and sign-up forms, not Keycloak's. The form keeps Keycloak's ids (kc-form-login,
     username, password, input-error) that tests and password managers rely on. -->
<#import "template.ftl" as layout>
<#assign appUrl = ((client.baseUrl)!'')?remove_ending('/')>
<@layout.registrationLayout displayMessage=!messagesPerField.existsError('username','password') displayInfo=true; section>
    <#if section = "header">
        ${msg("loginAccountTitle")}
    <#elseif section = "form">
        <div id="kc-form">
          <div id="kc-form-wrapper">
            <form id="kc-form-login" onsubmit="login.disabled = true; return true;" action="${url.loginAction}" method="post">
                <div class="${properties.kcFormGroupClass!}">
                    <label for="username" class="${properties.kcLabelClass!}">${msg("email")}</label>
                    <input tabindex="1" id="username" class="${properties.kcInputClass!}" name="username" value="${(login.username!'')}" type="email" autofocus autocomplete="username" dir="ltr"
                           aria-invalid="<#if messagesPerField.existsError('username','password')>true</#if>"/>
                    <#if messagesPerField.existsError('username','password')>
                        <span id="input-error" class="${properties.kcInputErrorMessageClass!}" aria-live="polite">
                            ${kcSanitize(messagesPerField.getFirstError('username','password'))?no_esc}
                        </span>
                    </#if>
                </div>

                <div class="${properties.kcFormGroupClass!}">
                    <label for="password" class="${properties.kcLabelClass!}">${msg("password")}</label>
                    <input tabindex="2" id="password" class="${properties.kcInputClass!}" name="password" type="password" autocomplete="current-password"
                           aria-invalid="<#if messagesPerField.existsError('username','password')>true</#if>"/>
                </div>

                <div class="${properties.kcFormGroupClass!} ${properties.kcFormSettingClass!} tuber-options">
                    <a tabindex="4" id="tuber-forgot-password" href="${appUrl}/forgot-password">${msg("doForgotPassword")}</a>
                </div>

                <div id="kc-form-buttons" class="${properties.kcFormGroupClass!}">
                    <input type="hidden" id="id-hidden-input" name="credentialId" <#if auth.selectedCredential?has_content>value="${auth.selectedCredential}"</#if>/>
                    <input tabindex="3" class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!} ${properties.kcButtonLargeClass!}" name="login" id="kc-login" type="submit" value="${msg("doLogIn")}"/>
                </div>
            </form>
          </div>
        </div>
    <#elseif section = "info">
        <div id="kc-registration-container">
            <div id="kc-registration">
                <span>${msg("noAccount")} <a tabindex="5" id="tuber-sign-up" href="${appUrl}/onboarding">${msg("doRegister")}</a></span>
            </div>
        </div>
    </#if>
</@layout.registrationLayout>
